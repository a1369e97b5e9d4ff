package cli

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/sandbox"
)

// envEngineBin names the engine binary that serves the sandbox's
// trampoline verb, when it is not this process's own executable (the
// client sets it for the same purpose).
const envEngineBin = "AGENTHOOKS_ENGINE_BIN"

// execSandbox is the sandbox as it applies to one exec call
// (docs/sandbox.md): decided before the hooks run, so that they see
// sandbox: true exactly when the kernel boundary will be up.
type execSandbox struct {
	policy sandbox.Policy
	// on: the command runs inside the kernel boundary.
	on bool
	// refused, when set, keeps the command from running at all: the
	// sandbox cannot be built, or the kernel cannot enforce it and the
	// policy does not allow running open.
	refused string
	// note is said before the command runs open where the kernel cannot
	// sandbox and the policy allows that.
	note     string
	bin      string
	problems []string
}

// sandboxFor reads the sandbox of roots through the host that loads their
// hooks, and decides how this call's command runs.
func (o *execOptions) sandboxFor(h *host.Host, roots []string) execSandbox {
	l := h.Sandbox(roots)
	var s execSandbox
	for _, p := range l.Problems {
		if err := l.Err(); err != nil && strings.HasPrefix(err.Error(), p.Error()) {
			continue // said once, as the refusal
		}
		s.problems = append(s.problems, "agenthooks: "+p.Error())
	}
	if err := l.Err(); err != nil {
		s.refused = "agenthooks: " + err.Error() + "; the command did not run"
		return s
	}
	s.policy = l.Policy
	s.bin = o.io.getenv(envEngineBin)
	if s.bin == "" {
		exe, err := os.Executable()
		if err != nil && l.Policy.Enabled() {
			s.refused = fmt.Sprintf("agenthooks: find the engine binary for the sandbox (%v); the command did not run", err)
			return s
		}
		s.bin = exe
	}
	probe := sandbox.Wrap(l.Policy, s.bin, []string{"true"})
	s.on, s.refused, s.note = probe.Sandboxed, probe.Refused, probe.Note
	return s
}

// wrap is argv as it runs: through the trampoline when the sandbox is on.
func (s execSandbox) wrap(argv []string) []string {
	if !s.on {
		return argv
	}
	return sandbox.Wrap(s.policy, s.bin, argv).Argv
}

// say prints the sandbox files' problems (unless quiet) and the note.
func (s execSandbox) say(w io.Writer, quiet bool) {
	if !quiet {
		for _, p := range s.problems {
			fmt.Fprintln(w, p)
		}
	}
	if s.note != "" {
		fmt.Fprintln(w, s.note)
	}
}

// explain names the sandbox rules behind a failed command's refusals, for
// the user and the after-hooks.
func (s execSandbox) explain(cwd, output string, code int) string {
	if !s.on || code == 0 {
		return ""
	}
	notes := sandbox.Explain(s.policy, cwd, output)
	if len(notes) == 0 {
		return ""
	}
	return strings.Join(notes, "\n") + "\n"
}
