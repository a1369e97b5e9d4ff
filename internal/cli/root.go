// Package cli is the agenthooks command line: one file per verb, each an
// Options struct and a run function, with the IO streams injectable so
// verbs are testable without a process.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/settings"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// Exit codes, documented in docs/cli.md.
const (
	ExitOK       = 0
	ExitProblems = 1  // validate found errors; a verb failed
	ExitUsage    = 64 // bad arguments or flags
	ExitData     = 65 // the input (payload) is not what the verb needs
	// ExitInterrupted: a signal stopped the verb before it could decide.
	ExitInterrupted = 130
)

// Version is set at build time with -ldflags "-X .../internal/cli.Version=…";
// otherwise it is the module version `go install` recorded, else "dev".
var Version = ""

func version() string { return versionOnce() }

// versionOnce reads the build information once: a long-lived process
// (the resident engine) asks for it again and again.
var versionOnce = sync.OnceValue(func() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
})

// IO holds a verb's streams and, when the verb runs in the resident
// engine for a client, that client's environment and working directory.
type IO struct {
	In       io.Reader
	Out, Err io.Writer

	// env and dir are the caller's environment and working directory; nil
	// and "" mean this process's.
	env []string
	dir string
	// host is the resident engine's host, shared by every client's verb;
	// nil means the verb opens its own.
	host *host.Host
}

// getenv reads the caller's environment.
func (s *IO) getenv(k string) string {
	if s.env == nil {
		return os.Getenv(k)
	}
	v := ""
	for _, kv := range s.env {
		if name, val, ok := strings.Cut(kv, "="); ok && settings.Name(name) == settings.Name(k) {
			v = val
		}
	}
	return v
}

// environ is the caller's environment.
func (s *IO) environ() []string {
	if s.env == nil {
		return os.Environ()
	}
	return s.env
}

// abs makes path absolute against the caller's working directory.
func (s *IO) abs(path string) (string, error) {
	if filepath.IsAbs(path) || s.dir == "" {
		return filepath.Abs(path)
	}
	return filepath.Join(s.dir, path), nil
}

// exitError carries an exit code out of a verb.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, a ...any) error {
	return &exitError{code: ExitUsage, err: fmt.Errorf(format, a...)}
}

func dataErr(format string, a ...any) error {
	return &exitError{code: ExitData, err: fmt.Errorf(format, a...)}
}

// silentExit ends a verb with a code and nothing more to print: the verb
// has already said what was wrong.
func silentExit(code int) error { return &exitError{code: code} }

// NewRoot builds the command tree.
func NewRoot(s *IO) *cobra.Command {
	root := &cobra.Command{
		Use:           "agenthooks",
		Short:         "Run Cursor-compatible agent hooks for any coding agent",
		Long:          rootLong,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &exitError{code: ExitUsage, err: err}
	})
	for _, v := range verbs() {
		root.AddCommand(v(s))
	}
	groupVerbs(root)
	return root
}

// verbs are the subcommands, each built by its file's constructor: the
// one list of what the command line offers.
func verbs() []func(*IO) *cobra.Command {
	return []func(*IO) *cobra.Command{
		newContractCmd,
		newDemoCmd,
		newDoctorCmd,
		newEngineCmd,
		newExecCmd,
		newExportCmd,
		newHealthCmd,
		newInitCmd,
		newInstallVerb,
		newUninstallVerb,
		newListCmd,
		newLogCmd,
		newPolicyCmd,
		newRunCmd,
		newSchemaCmd,
		newSetupCmd,
		newServeCmd,
		newSettingsCmd,
		newSyncCmd,
		newTeamCmd,
		newTestCmd,
		newTrustCmd,
		newValidateCmd,
		newVersionCmd,
	}
}

// Main runs the command line with the process's streams and returns the
// exit code. It is the one place that catches the interrupt signals
// (interruptSignals, per OS): the first ends the context every verb gets
// from cmd.Context(), so a verb stops its hooks (their process groups
// included), answers and returns instead of dying and leaving them behind;
// they stay caught until Main returns, so a second signal cannot kill the
// process while those groups are still being stopped. exec, which passes
// signals on to its command, catches them itself as well (exec_signal.go).
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), interruptSignals...)
	defer stop()
	s := &IO{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}
	return ExecuteContext(ctx, s, args)
}

// Execute runs the command line with the given streams and arguments,
// with no signal handling: ExecuteContext with context.Background().
func Execute(s *IO, args []string) int { return ExecuteContext(context.Background(), s, args) }

// ExecuteContext runs the command line with the given streams and
// arguments; ctx is every verb's cmd.Context(), and its end asks the verb
// to stop.
func ExecuteContext(ctx context.Context, s *IO, args []string) int {
	return execute(ctx, s, NewRoot(s), args)
}

// execute runs args on a command tree and turns the result into an exit
// code, printing the error.
func execute(ctx context.Context, s *IO, root *cobra.Command, args []string) int {
	args = asShell(args)
	root.SetArgs(args)
	return exitCode(s, root.ExecuteContext(ctx))
}

// exitCode is a verb's error as an exit code, printed unless the verb
// has said what was wrong already.
func exitCode(s *IO, err error) int {
	if err == nil {
		return ExitOK
	}
	code := ExitProblems
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
		if ee.err == nil {
			return code
		}
	} else if isUsage(err) {
		code = ExitUsage
	}
	fmt.Fprintln(s.Err, "agenthooks:", err)
	return code
}

// isUsage recognises cobra's own argument errors, which it does not type.
func isUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "accepts ", "requires at least", "unknown flag", "unknown shorthand"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// asShell lets agenthooks stand in for a shell: agents run commands as
// `$SHELL -c STRING` (or -lc, -ic), so those arguments mean `exec -c`.
func asShell(args []string) []string {
	if len(args) > 0 && args[0] != "exec" {
		if a, ok := wire.ExecArgs(args); ok {
			return append([]string{"exec"}, a...)
		}
	}
	return args
}
