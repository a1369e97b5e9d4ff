package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/host"
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

	dialect *agent.Dialect
	// event is the agent's event name from the command line, for agents
	// whose payload does not say (Copilot's camelCase format).
	event string
}

// addFromFlags registers --from, --allow-means and --verbose on run.
func addFromFlags(cmd *cobra.Command, o *runOptions) {
	f := cmd.Flags()
	f.StringVar(&o.from.agent, "from", "", "read the hook payload of an agent and answer in its format: "+strings.Join(agents.Names(), ", ")+" (STEP is then the agent's own event name, and optional)")
	f.StringVar(&o.from.allowMeans, "allow-means", allowNoObjection, "with --from, what a hook's allow tells the agent: no-objection (the agent's own permission checks still apply) or approve")
	f.BoolVar(&o.from.verbose, "verbose", false, "with --from, notes on stderr: events with no Cursor counterpart, files that could not be read, the env file")
}

// checkArgs checks run's positional argument: a Cursor STEP, or with
// --from an optional agent event name. allowMeansSet says --allow-means
// was given.
func (o *runOptions) checkArgs(args []string, allowMeansSet bool) error {
	if o.from.agent == "" {
		if allowMeansSet {
			return usageErr("--allow-means only applies with --from AGENT")
		}
		return checkStep("run", "agenthooks run beforeShellExecution", &o.step, args)
	}
	a, ok := agents.Lookup(o.from.agent)
	if !ok {
		return usageErr("unknown --from %q: use one of %s", o.from.agent, strings.Join(agents.Names(), ", "))
	}
	d := a.Dialect
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

// runFrom is `run --from AGENT`: the agent's payload in, the Cursor steps
// its event means run as one decision, the answer out in the agent's
// format and exit-code convention. Every failure is answered the way the
// agent expects (see docs/faults.md), never with agenthooks' own exit
// codes.
func (o *runOptions) runFrom(ctx context.Context) error {
	d := o.from.dialect
	payload, perr := readPayload(o.io.In)
	h := o.io.openHost(ctx)
	rep := h.Run(ctx, host.Request{
		Agent: d.Name, Event: o.from.event, Payload: payload, PayloadErr: perr,
		Workspaces: o.workspaces, Approve: o.from.allowMeans == allowApprove,
		Dir: o.io.dir, Env: o.io.env,
	})
	o.writeEnv(d, rep.Env)
	// On exit 2, stderr is the reason the agent shows: keep it clean.
	return o.finish(ctx, h, rep, rep.Code != 2 || o.from.verbose)
}

// writeEnv appends a sessionStart's env to the file the agent named for it.
func (o *runOptions) writeEnv(d *agent.Dialect, env map[string]string) {
	if len(env) == 0 {
		return
	}
	for _, v := range d.EnvFileVars {
		path := o.io.getenv(v)
		if path == "" {
			continue
		}
		skipped, err := agent.AppendEnvFile(path, env)
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
