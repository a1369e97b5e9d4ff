package cli

import (
	"cmp"
	"context"
	"io"

	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/client"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// servesCall says whether the resident engine runs a request: a served
// verb (client.Served) that comes as a Call.
func servesCall(req *wire.Request) bool { return req.Call != nil && client.Served(req.Args) }

// handleServed runs one client's request on the engine's host, as the
// verb does in the client's own process: the same checks of its values,
// the same run on host (Host.Run, Host.PlanExec, Host.ReportExec), the
// same answer and exit code. No command line is built: the request is
// the verb, already read (wire.Call).
func handleServed(ctx context.Context, h *host.Host, req *wire.Request, body []byte, out, errOut io.Writer) int {
	env := req.Env
	if env == nil {
		env = []string{}
	}
	s := &IO{In: newServedInput(body, req.StdinErr), Out: out, Err: errOut, env: env, dir: req.Dir, host: h}
	return exitCode(s, runCall(ctx, s, req.Call))
}

// runCall runs a served verb's Call.
func runCall(ctx context.Context, s *IO, c *wire.Call) error {
	switch c.Verb {
	case wire.VerbRun:
		o := &runOptions{io: s, workspaces: c.Workspaces,
			from: fromOptions{agent: c.From, allowMeans: cmp.Or(c.AllowMeans, allowNoObjection), verbose: c.Verbose}}
		if err := o.checkArgs(c.Args, c.AllowMeans != ""); err != nil {
			return err
		}
		if o.from.agent != "" {
			return o.runFrom(ctx)
		}
		return o.run(ctx)
	case wire.VerbPolicy:
		o := &policyOptions{io: s, step: c.Step}
		if err := o.checkArgs(c.Args); err != nil {
			return err
		}
		return o.run(ctx)
	case wire.VerbExecPlan, wire.VerbExecReport:
		o := &execOptions{io: s, workspaces: c.Workspaces, script: c.Script, scriptSet: c.ScriptSet,
			ask: cmp.Or(c.Ask, askPrompt), conversation: c.Conversation, noPTY: c.NoPTY, quiet: c.Quiet, args: c.Args,
			planOnly: c.Verb == wire.VerbExecPlan, reportOnly: c.Verb == wire.VerbExecReport}
		if err := o.checkArgs(c.Args); err != nil {
			return err
		}
		if o.planOnly {
			return o.plan(ctx)
		}
		return o.report(ctx)
	}
	return usageErr("the engine does not run %q", c.Verb)
}
