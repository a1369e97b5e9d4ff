package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/proc"
)

// Exit codes of exec besides the command's own, listed in its help. They
// follow the convention of wrappers such as env, nice and timeout, so a
// caller can tell "agenthooks failed" from "the command failed" as far as
// one byte allows.
const (
	// ExitExecFailed: agenthooks could not gate the command (the hooks
	// could not be loaded); nothing ran.
	ExitExecFailed = proc.ExitNoStatus
	// ExitExecDenied: a hook denied the command, or asked and nobody
	// said yes; nothing ran. sh uses 126 for "found but cannot run".
	ExitExecDenied = proc.ExitCannotRun
	// ExitExecNotFound: the command's program does not exist (sh's 127).
	ExitExecNotFound = proc.ExitNotFound
)

// Ask policies: what exec does when a hook answers "ask".
const (
	askPrompt = host.AskPrompt // ask on the terminal; deny when there is none
	askAllow  = host.AskAllow  // run without asking
	askDeny   = host.AskDeny   // refuse without asking
)

// envConversation names the conversation when --conversation is not given,
// so an agent can set it once for every command it runs.
const envConversation = "AGENTHOOKS_CONVERSATION_ID"

type execOptions struct {
	io           *IO
	workspaces   []string
	script       string // the -c STRING
	scriptSet    bool
	ask          string
	conversation string
	noPTY        bool
	quiet        bool
	args         []string
	// planOnly and reportOnly are the halves of exec for a caller that
	// runs the command itself (exec_plan.go).
	planOnly, reportOnly bool
}

func newExecCmd(s *IO) *cobra.Command {
	o := &execOptions{io: s}
	cmd := &cobra.Command{
		Use:   "exec [flags] [--] COMMAND [ARG]...  |  exec [flags] -c STRING [ARG0 [ARG]...]",
		Short: "Run a shell command behind the shell hooks (beforeShellExecution, preToolUse, …)",
		Long: `Exec gates one command the way Cursor gates an agent's terminal command: it runs the
preToolUse (tool "Shell") and beforeShellExecution hooks, and only when neither denies
does it run the command, with its stdin, stdout and stderr passed through. Then it
runs afterShellExecution and postToolUse (postToolUseFailure when the command failed
or was refused) with the output and duration, and exits with the command's exit code.

Flags go before the command: from COMMAND (or -c STRING) on, every argument is the
command's. The command hooks see is the single argument as it is, -c's STRING, or
the arguments joined and shell-quoted. A single argument and -c STRING run through
the shell (/bin/sh -c, PowerShell on Windows); two or more arguments run as they
are, with no shell. When a preToolUse hook rewrites the command
(updated_input.command), the new command runs through the shell, once every
before-hook (preToolUse and beforeShellExecution) has judged it too; one
rewritten yet again does not run.

A hook that answers "ask" gets a question on the terminal (/dev/tty, the console on
Windows) showing the command and the hook's message: only y or yes runs it. Without
a terminal (neither stdin nor stderr is one), --ask decides: prompt (the default)
and deny refuse, allow runs. --ask=allow and --ask=deny never prompt.

When stdout is a terminal, the command gets a pseudo-terminal of its own, sized and
set up like ours, and everything it shows is relayed and captured, so interactive
programs work and the after-hooks still see the output (Cursor's agents run commands
in a terminal too). ^Z stops it on that terminal, where exec cannot resume it: for
job control, --no-pty hands it our terminal directly and captures nothing.
Otherwise stdout and stderr are copied through pipes, byte for byte, and captured
in the order they are read. The after-hooks get at most 1 MiB: the first and last
512 KiB, with a line saying how much was left out between them.

-c accepts the form agents use with $SHELL (-c STRING, -lc STRING; -l and -i are
accepted and ignored), so a one-line wrapper script can serve as an agent's SHELL:
  #!/bin/sh
  exec agenthooks exec "$@"

SIGINT, SIGTERM, SIGHUP and SIGQUIT are passed on to the command. Exit status: the
command's; 128+N when it died of signal N (or exec was interrupted before it ran);
125 when the hooks could not be loaded; 126 when a hook denied it or asked and got no
yes; 127 when its program was not found; 64 for a usage error.`,
		Example: `  agenthooks exec -- ls -la`,
		Args: func(cmd *cobra.Command, args []string) error {
			o.scriptSet = cmd.Flags().Changed("command")
			return o.checkArgs(args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.args = args
			switch {
			case o.planOnly:
				return o.plan(cmd.Context())
			case o.reportOnly:
				return o.report(cmd.Context())
			}
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	// The command's own flags follow it: stop at the first argument.
	f.SetInterspersed(false)
	f.StringVarP(&o.script, "command", "c", "", "run STRING through the shell, as sh -c does; arguments after it become $0, $1, …")
	f.StringArrayVarP(&o.workspaces, "workspace", "w", nil, "workspace root (repeatable); default: the current directory")
	f.StringVar(&o.conversation, "conversation", "", "conversation_id for the hooks (default $"+envConversation+")")
	f.StringVar(&o.ask, "ask", askPrompt, "when a hook asks: prompt (on the terminal; deny without one), allow, deny")
	f.BoolVar(&o.noPTY, "no-pty", false, "when stdout is a terminal, give it to the command directly: no output capture")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "do not report configuration problems or rewritten commands on stderr")
	f.BoolP("login", "l", false, "accepted for $SHELL compatibility; ignored")
	f.BoolP("interactive", "i", false, "accepted for $SHELL compatibility; ignored")
	f.BoolVar(&o.planOnly, "plan", false, "gate the command and print the plan as JSON, without running it")
	f.BoolVar(&o.reportOnly, "report", false, "run the after-hooks of a planned command, from a report on stdin")
	_ = f.MarkHidden("plan")
	_ = f.MarkHidden("report")
	cmd.MarkFlagsMutuallyExclusive("plan", "report")
	return cmd
}

// checkArgs checks exec's command and --ask.
func (o *execOptions) checkArgs(args []string) error {
	if o.reportOnly {
		return nil
	}
	if !o.scriptSet && len(args) == 0 {
		return usageErr("exec needs a command: agenthooks exec -- COMMAND [ARG]... or agenthooks exec -c STRING")
	}
	switch o.ask {
	case askPrompt, askAllow, askDeny:
	default:
		return usageErr("--ask %q: must be prompt, allow or deny", o.ask)
	}
	return nil
}

// run gates the command, runs it, reports it, and ends with its status:
// the host's gate (PlanExec, ReportExec) in this process, with the
// question and the command on this process's terminal.
func (o *execOptions) run(ctx context.Context) error {
	// exec takes the signals itself: while hooks run one cancels them
	// (execWatch), while the command runs it goes to the command, and the
	// hooks after the command still run. So the root context's end on the
	// same signal must not cancel anything here; only a signal that came
	// before exec caught them stops it, before anything ran.
	sigs := execNotify()
	defer execStopNotify(sigs)
	if ctx.Err() != nil {
		fmt.Fprintln(o.io.Err, "agenthooks: interrupted before the command ran")
		return silentExit(execSignalCode(nil))
	}
	ctx = context.WithoutCancel(ctx)

	cwd, err := o.workDir()
	if err != nil {
		return err
	}
	if o.io.getenv(engine.HookMarker) != "" {
		// A hook's own shell command: running the hooks again would recurse
		// without end when agenthooks is the agent's $SHELL. No host is
		// opened for it.
		req, err := o.request(cwd)
		if err != nil {
			return err
		}
		argv := req.Argv
		if argv == nil {
			argv = append(proc.ForegroundShell(req.Command), req.ShellArgs...)
		}
		return o.ended(o.foreground(argv, cwd, sigs).Run())
	}
	req, err := o.request(cwd)
	if err != nil {
		return err
	}
	h := host.Open(ctx, host.Options{Warn: func(msg string) { fmt.Fprintln(o.io.Err, "agenthooks: warning:", msg) }})
	defer func() { _ = h.Close(ctx) }()

	hctx, stop := execWatch(ctx, sigs)
	p, err := h.PlanExec(hctx, req)
	if err == nil && p.Ask != nil {
		p.Run, p.Reason = p.Ask.Confirm(hctx, o.io.In, o.io.Err)
		if !p.Run {
			p.Messages = []string{p.Reason}
		}
	}
	if sig := stop(); sig != nil {
		fmt.Fprintf(o.io.Err, "agenthooks: interrupted (%v) before the command ran\n", sig)
		return silentExit(execSignalCode(sig))
	}
	if err != nil {
		return &exitError{code: ExitExecFailed, err: err}
	}
	fmt.Fprint(o.io.Err, p.Stderr)
	if !p.Run {
		for _, m := range p.Messages {
			fmt.Fprintln(o.io.Err, m)
		}
		if p.Hooks && p.Call != nil {
			o.afterHooks(ctx, sigs, h, host.ExecReport{Call: *p.Call, Refused: p.Reason})
		}
		return silentExit(ExitExecDenied)
	}
	res := o.foreground(p.Argv, p.Dir, sigs).Run()
	if p.Hooks && p.Call != nil {
		if res.StartErr != "" {
			fmt.Fprintln(o.io.Err, "agenthooks:", res.StartErr)
		}
		o.afterHooks(ctx, sigs, h, host.ExecReport{Call: *p.Call, Result: &host.ExecResult{
			Code: res.Code, Signal: res.Signal, Interrupted: res.Interrupted,
			StartErr: res.StartErr, Output: res.Output, DurationMS: res.Duration.Milliseconds(),
		}})
		if res.Code != 0 {
			return silentExit(res.Code)
		}
		return nil
	}
	return o.ended(res)
}

// ended ends exec with a command's status, saying why it did not start.
func (o *execOptions) ended(res proc.ForegroundResult) error {
	if res.StartErr != "" {
		fmt.Fprintln(o.io.Err, "agenthooks:", res.StartErr)
	}
	if res.Code != 0 {
		return silentExit(res.Code)
	}
	return nil
}

// afterHooks runs the after-hooks of the command; a signal cuts them
// short.
func (o *execOptions) afterHooks(ctx context.Context, sigs <-chan os.Signal, h *host.Host, r host.ExecReport) {
	hctx, stop := execWatch(ctx, sigs)
	defer stop()
	fmt.Fprint(o.io.Err, h.ReportExec(hctx, r, o.io.env))
}

// request is the command as the host gates it.
func (o *execOptions) request(cwd string) (host.ExecRequest, error) {
	req := host.ExecRequest{Cwd: cwd, Conversation: o.conversation, Env: o.io.env, Ask: o.ask, Quiet: o.quiet, NoPTY: o.noPTY}
	switch {
	case o.scriptSet:
		req.Command, req.ShellArgs = o.script, o.args
	case len(o.args) == 1:
		req.Command = o.args[0]
	default:
		req.Command, req.Argv = execQuoteArgs(o.args), o.args
	}
	if req.Conversation == "" {
		req.Conversation = o.io.getenv(envConversation)
	}
	var roots []string
	for _, r := range o.workspaces {
		a, err := o.io.abs(r)
		if err != nil {
			return req, &exitError{code: ExitExecFailed, err: fmt.Errorf("workspace %s: %w", r, err)}
		}
		roots = append(roots, a)
	}
	if len(roots) == 0 {
		roots = []string{cwd}
	}
	roots, err := workspaceRoots(nil, roots)
	if err != nil {
		return req, err
	}
	req.Roots = roots
	return req, nil
}

// foreground is the command as exec runs it: with exec's streams and the
// signals exec catches.
func (o *execOptions) foreground(argv []string, dir string, sigs <-chan os.Signal) proc.Foreground {
	return proc.Foreground{Argv: argv, Dir: dir, Stdin: o.io.In, Stdout: o.io.Out, Stderr: o.io.Err, PTY: !o.noPTY, Signals: sigs}
}
