package sandbox

import (
	"encoding/json"
	"fmt"
)

// Verb is the engine binary's hidden verb that enters the sandbox: the
// command a sandboxed exec runs is `ENGINE __sandbox POLICY -- ARGV…`.
const Verb = "__sandbox"

// Launch is how one command runs under the policy.
type Launch struct {
	// Sandboxed says the kernel boundary is up for it: hooks see
	// sandbox: true exactly then.
	Sandboxed bool
	// Argv is what to run: the command itself, or the trampoline around
	// it.
	Argv []string
	// Refused, when set, says why the command must not run at all.
	Refused string
	// Note is said to the user before the command runs (it runs open
	// because the policy allows that where the kernel cannot sandbox).
	Note string
}

// Wrap decides how argv runs under p, with bin the engine binary that
// serves the trampoline verb.
func Wrap(p Policy, bin string, argv []string) Launch {
	if !p.Enabled() {
		return Launch{Argv: argv}
	}
	if err := Supported(p); err != nil {
		if p.Unavailable == UnavailableRunOpen {
			return Launch{Argv: argv, Note: fmt.Sprintf("agenthooks: the sandbox is not available here (%v); the command runs unsandboxed, as whenUnavailable in %s allows", err, p.UnavailableFrom)}
		}
		return Launch{Refused: fmt.Sprintf("agenthooks: the sandbox is not available here (%v), so the command did not run (to run commands unsandboxed where the kernel cannot sandbox, set \"whenUnavailable\": \"run_unsandboxed\" in sandbox.json)", err)}
	}
	b, err := json.Marshal(job{Policy: p})
	if err != nil {
		return Launch{Refused: "agenthooks: encode the sandbox policy, so the command did not run: " + err.Error()}
	}
	return Launch{Sandboxed: true, Argv: append([]string{bin, Verb, string(b), "--"}, argv...)}
}

// job is what the trampoline is given.
type job struct {
	Policy Policy `json:"policy"`
	// ProxyPort is the proxy the supervisor started, for the process that
	// enters the sandbox.
	ProxyPort int `json:"proxy_port,omitempty"`
}
