// Package client is the agenthooks command that agents run for every step.
// It links only the standard library: a step goes over a unix socket (a
// named pipe on Windows) to the user's resident engine
// (agenthooks-engine, started on first use),
// and when there is no engine it can trust, the step runs in a process of
// the full binary instead, with the same answer. Every other verb is the
// full binary's, which the client hands the process to.
package client

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// EngineName is the full binary's name, installed beside this one.
const EngineName = "agenthooks-engine"

// Environment variables the client reads.
const (
	// EnvEngine set to "off" runs every step in a process of its own.
	EnvEngine = "AGENTHOOKS_ENGINE"
	// EnvEngineBin is the full binary's path, when it is not beside this
	// one or on PATH.
	EnvEngineBin = "AGENTHOOKS_ENGINE_BIN"
	// EnvFront tells the full binary the path of this one, which is what
	// `agenthooks install` writes into agents' settings.
	EnvFront = "AGENTHOOKS_FRONT"
)

// Main runs the command line and returns the exit code.
func Main(args []string) int {
	// The agent's environment may hold agenthooks' secrets: no hook may
	// read them from here.
	wire.Undumpable()
	// A client lives for one step: collecting its garbage only costs
	// time (for a 10 MB payload, more than reading it). The limit lets the
	// collector in before the largest payload could exhaust memory.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(4 * wire.MaxBody)
	bin, err := engineBinary()
	if err != nil {
		return missing(args, err)
	}
	if execArgs, ok := wire.ExecArgs(args); ok && engineOn() {
		return runExec(bin, execArgs)
	}
	if !Served(args) {
		return handOver(bin, args)
	}
	stdin, readErr := readStdin()
	return step(bin, args, stdin, readErr, os.Stdout, os.Stderr)
}

// engineOn reports whether steps go to the resident engine.
func engineOn() bool { return os.Getenv(EnvEngine) != "off" && wire.Supported }

// step runs a served verb on the engine, or here when the engine cannot,
// and writes its answer.
func step(bin string, args []string, stdin []byte, readErr error, stdout, stderr io.Writer) int {
	if engineOn() {
		// The engine runs the verb as its arguments mean it (a Call); one
		// this client cannot read exactly runs here, where the full
		// binary's command line answers it.
		if call, ok := wire.ParseCall(args); ok {
			code, err := ask(bin, args, call, stdin, readErr, os.Environ(), stdout, stderr)
			if err == nil {
				return code
			}
			debugf("engine: %v", err)
		} else {
			debugf("engine: %q is not a request the engine runs", args)
		}
	}
	return runHere(bin, args, stdin, stdout, stderr)
}

// Served reports whether the verb is answered by the engine: run (every
// form) and policy FILE, the verbs agents and hooks run for every step.
// Help, the policy subcommands and everything else go to the full binary.
func Served(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if args[0] == "exec" {
		// Only the halves of exec (exec.go): the engine never runs a
		// user's command. The command's own arguments may be anything,
		// -h included; exec's help on the engine is exec's help.
		return len(args) > 1 && (args[1] == "--plan" || args[1] == "--report")
	}
	for _, a := range args {
		if a == "-h" || a == "--help" || a == "--version" {
			return false
		}
	}
	switch args[0] {
	case "run":
		return true
	case "policy":
		return len(args) > 1 && !slices.Contains([]string{"check", "test", "help"}, args[1])
	}
	return false
}

// engineBinary finds the full binary: $AGENTHOOKS_ENGINE_BIN, else beside
// this executable, else on PATH.
func engineBinary() (string, error) {
	if p := os.Getenv(EnvEngineBin); p != "" {
		return p, nil
	}
	name := EngineName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is neither beside agenthooks nor on PATH (install both: go install github.com/agenthooks/agenthooks/cmd/...@latest)", EngineName)
	}
	return p, nil
}

// missing answers when the full binary cannot be found. A step is
// refused in its agent's blocking form: a broken install must not let an
// action through unchecked.
func missing(args []string, err error) int {
	fmt.Fprintln(os.Stderr, "agenthooks:", err)
	if _, ok := wire.ExecArgs(args); ok {
		fmt.Fprintln(os.Stderr, "agenthooks: the command did not run: no hooks could run")
		return 125 // exec's "could not gate the command"
	}
	if Served(args) {
		return refuse(args, blockedMsg, os.Stdout, os.Stderr)
	}
	return 127
}

// fullEnv is the environment for the full binary: the caller's, with
// this binary's path for install.
func fullEnv() []string {
	env := os.Environ()
	if self, err := os.Executable(); err == nil {
		env = append(env, EnvFront+"="+self)
	}
	return env
}

// engineEnv is env for a process of the full binary, with agenthooks'
// secrets moved from its environment to a pipe (wire.PassSecrets); the
// caller closes the file, when there is one, once the process started.
func engineEnv(env []string, inherit bool) ([]string, *os.File) {
	out, f, err := wire.PassSecrets(env, inherit)
	if err != nil {
		debugf("%v", err)
	}
	return out, f
}

// debugf prints why the engine was not used, with AGENTHOOKS_ENGINE_DEBUG.
func debugf(format string, a ...any) {
	if os.Getenv("AGENTHOOKS_ENGINE_DEBUG") != "" {
		fmt.Fprintf(os.Stderr, "agenthooks: "+format+"\n", a...)
	}
}

// blockedMsg says why a step was refused without its hooks.
const blockedMsg = "agenthooks: the step is blocked: no hooks could run"

// errNoSockets: this process may not make a unix socket (the sandbox's
// socket filter refuses it).
var errNoSockets = errors.New("no unix socket may be made here")

// errRefused is an engine's refusal to run a request.
var errRefused = errors.New("refused")
