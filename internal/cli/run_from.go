package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/dialect"
	"github.com/agenthooks/agenthooks/engine"
)

// The values of --allow-means.
const (
	allowNoObjection = "no-objection"
	allowApprove     = "approve"
)

// fromOptions are run's flags for other agents' hooks: `run --from AGENT`
// reads the payload AGENT sends its hooks and answers in AGENT's format.
type fromOptions struct {
	agent      string
	allowMeans string
	verbose    bool

	dialect *dialect.Dialect
	// event is the agent's event name from the command line, for agents
	// whose payload does not say (Copilot's camelCase format).
	event string
}

// addFromFlags registers --from, --allow-means and --verbose on run.
func addFromFlags(cmd *cobra.Command, o *runOptions) {
	f := cmd.Flags()
	f.StringVar(&o.from.agent, "from", "", "read the hook payload of an agent and answer in its format: "+strings.Join(dialect.Names(), ", ")+" (STEP is then the agent's own event name, and optional)")
	f.StringVar(&o.from.allowMeans, "allow-means", allowNoObjection, "with --from, what a hook's allow tells the agent: no-objection (the agent's own permission checks still apply) or approve")
	f.BoolVar(&o.from.verbose, "verbose", false, "with --from, notes on stderr: events with no Cursor counterpart, files that could not be read, the env file")
}

// stepOrEvent checks run's positional argument: a Cursor STEP, or with
// --from an optional agent event name.
func (o *runOptions) stepOrEvent(step cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if o.from.agent == "" {
			if cmd.Flags().Changed("allow-means") {
				return usageErr("--allow-means only applies with --from AGENT")
			}
			return step(cmd, args)
		}
		d, ok := dialect.Lookup(o.from.agent)
		if !ok {
			return usageErr("unknown --from %q: use one of %s", o.from.agent, strings.Join(dialect.Names(), ", "))
		}
		if len(args) > 1 {
			return usageErr("run --from %s takes at most one argument, the %s event (the payload usually names it)", d.Name, d.Title)
		}
		switch o.from.allowMeans {
		case allowNoObjection, allowApprove:
		default:
			return usageErr("--allow-means %q: use %s or %s", o.from.allowMeans, allowNoObjection, allowApprove)
		}
		o.from.dialect = d
		if len(args) == 1 {
			o.from.event = args[0]
		}
		return nil
	}
}

// runFrom is `run --from AGENT`: the agent's payload in, the Cursor steps
// its event means run as one decision, the answer out in the agent's
// format and exit-code convention. Every failure is answered the way the
// agent expects a failing hook to answer (fail-open or fail-closed per
// agent, see docs/dialects.md), never with agenthooks' own exit codes.
func (o *runOptions) runFrom(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, interruptSignals...)
	defer stop()
	d := o.from.dialect
	opts := dialect.Options{Approve: o.from.allowMeans == allowApprove}

	payload, err := readPayload(o.io.In)
	if err != nil {
		return o.reply(d.Fail(err))
	}
	req, err := d.Parse(payload, o.from.event)
	if err != nil {
		return o.reply(d.Fail(err))
	}
	if o.from.event != "" && req.Event != o.from.event {
		o.note("the payload names the %s event %q, not %q as the command line does; the payload's is used", d.Title, req.Event, o.from.event)
	}
	if req.Kind == dialect.None {
		o.note("%s", req.Note)
		return o.reply(d.Answer(req, nil, opts))
	}
	roots, err := workspaceRoots(nil, o.fromRoots(d, req))
	if err != nil {
		return o.reply(d.Fail(err))
	}
	eng, closeEngine, err := openEngine(ctx, roots, d.ReadsClaudeSettings)
	if err != nil {
		return o.reply(d.Fail(err))
	}
	defer closeEngine()

	ds, err := o.runCalls(ctx, eng, req.Calls)
	if err != nil {
		return o.reply(d.Fail(err))
	}
	v := dialect.Merge(ds)
	if again := req.Recheck(v); len(again) > 0 {
		more, err := o.runCalls(ctx, eng, again)
		if err != nil {
			return o.reply(d.Fail(err))
		}
		v = dialect.Merge(append(ds, more...))
	}
	if ctx.Err() != nil {
		// Hooks cut short fail open; deciding on their answers would let
		// the action through unjudged.
		return o.reply(d.Fail(fmt.Errorf("interrupted before the hooks decided: %w", ctx.Err())))
	}
	ans := d.Answer(req, v, opts)
	o.writeEnv(d, ans.Env)
	// On exit 2, stderr is the reason the agent shows: keep it clean.
	if ans.Code != 2 || o.from.verbose {
		printEngineProblems(o.io.Err, eng)
	}
	return o.reply(ans)
}

// fromRoots picks the workspace roots of an agent's hook: --workspace,
// else the agent's project-dir variable, else the payload's cwd, else
// (workspaceRoots decides) the current directory.
func (o *runOptions) fromRoots(d *dialect.Dialect, req *dialect.Request) []string {
	if len(o.workspaces) > 0 {
		return o.workspaces
	}
	for _, v := range d.ProjectDirVars {
		if dir := os.Getenv(v); dir != "" {
			return []string{dir}
		}
	}
	if req.Cwd != "" {
		return []string{req.Cwd}
	}
	return nil
}

// runCalls runs the steps of one agent event at once (they are
// independent, and the agent waits for the slowest), after reading the
// files beforeReadFile hooks are shown. Decisions come back in the order
// of the calls.
func (o *runOptions) runCalls(ctx context.Context, eng *engine.Engine, calls []dialect.Call) ([]*engine.Decision, error) {
	for _, err := range dialect.LoadContents(calls, dialect.ReadBounded(dialect.MaxContent)) {
		o.note("%v", err)
	}
	ds := make([]*engine.Decision, len(calls))
	errs := make([]error, len(calls))
	var wg sync.WaitGroup
	for i, c := range calls {
		body, err := c.JSON()
		if err != nil {
			return nil, fmt.Errorf("%s payload: %w", c.Step, err)
		}
		wg.Go(func() { ds[i], errs[i] = eng.Run(ctx, c.Step, body) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return ds, nil
}

// writeEnv appends a sessionStart's env to the file the agent named for it.
func (o *runOptions) writeEnv(d *dialect.Dialect, env map[string]string) {
	if len(env) == 0 {
		return
	}
	for _, v := range d.EnvFileVars {
		path := os.Getenv(v)
		if path == "" {
			continue
		}
		skipped, err := dialect.AppendEnvFile(path, env)
		if err != nil {
			fmt.Fprintf(o.io.Err, "agenthooks: the session env was not written to $%s: %v\n", v, err)
		}
		if len(skipped) > 0 {
			o.note("not valid shell variable names, left out of $%s: %s", v, strings.Join(skipped, ", "))
		}
		return
	}
	if len(d.EnvFileVars) > 0 {
		o.note("a sessionStart hook set env, and $%s is not set: it reaches later hooks only", d.EnvFileVars[0])
	} else {
		o.note("a sessionStart hook set env; %s has no env file, so it reaches later hooks only", d.Title)
	}
}

// note prints a line on stderr with --verbose.
func (o *runOptions) note(format string, a ...any) {
	if o.from.verbose {
		fmt.Fprintf(o.io.Err, "agenthooks: note: "+format+"\n", a...)
	}
}

// reply writes an answer and ends with its exit code.
func (o *runOptions) reply(a dialect.Answer) error {
	if len(a.Stdout) > 0 {
		if _, err := o.io.Out.Write(a.Stdout); err != nil {
			return fmt.Errorf("write answer: %w", err)
		}
	}
	if a.Stderr != "" {
		fmt.Fprintln(o.io.Err, strings.TrimRight(a.Stderr, "\n"))
	}
	if a.Code != 0 {
		return silentExit(a.Code)
	}
	return nil
}
