package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/team/teamsync"
)

type syncOptions struct {
	io        *IO
	server    string
	token     string
	home      string
	accept    bool
	show      bool
	watch     bool
	interval  time.Duration
	timeout   time.Duration
	maxScript int64
	allowHTTP bool

	// declined remembers a "no" at the prompt, so a watch asks once.
	declined bool
}

func newSyncCmd(s *IO) *cobra.Command {
	o := &syncOptions{io: s}
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "Install a team's hooks from its team server",
		Long: `Sync fetches your team's hooks from its team server with your member token and
installs them where every agenthooks source lookup finds the team source:
~/.cursor/managed/team_<id>/hooks/ (the scripts and a hooks.json that runs them).

The whole set is replaced at once; while the server is unreachable or answers
something wrong, the last good set stays as it is. The first time a team's hooks
arrive they must be accepted: review them with --show, then sync with --accept
(or answer the question on a terminal).

The token is read from ` + teamsync.TokenEnv + ` (preferred: a --token flag is visible
to every user in the process list), the server from ` + teamsync.ServerEnv + `.`,
		Example: `  agenthooks sync --show`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.check(cmd); err != nil {
				return err
			}
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "", "team server URL (default $"+teamsync.ServerEnv+")")
	f.StringVar(&o.token, "token", "", "member token (default $"+teamsync.TokenEnv+", which is safer)")
	f.StringVar(&o.home, "home", "", "home folder whose ~/.cursor/managed receives the hooks (default: yours)")
	f.BoolVar(&o.accept, "accept", false, "accept the team's hooks the first time they are installed")
	f.BoolVar(&o.show, "show", false, "print the team's hooks and scripts for review; install nothing")
	f.BoolVar(&o.watch, "watch", false, "keep syncing, every --interval, until interrupted")
	f.DurationVar(&o.interval, "interval", teamsync.DefaultInterval, "time between syncs with --watch (varied by ±10%)")
	f.DurationVar(&o.timeout, "timeout", teamsync.DefaultTimeout, "how long to wait for the server on each sync")
	f.Int64Var(&o.maxScript, "max-script-bytes", teamsync.DefaultMaxScriptBytes, "refuse the set if a script is larger")
	f.BoolVar(&o.allowHTTP, "allow-http", false, "allow plain http:// to another machine (sends the token in clear text)")
	return cmd
}

// check rejects flag combinations that mean nothing.
func (o *syncOptions) check(cmd *cobra.Command) error {
	switch {
	case o.show && (o.accept || o.watch):
		return usageErr("--show installs nothing; it goes without --accept and --watch")
	case cmd.Flags().Changed("interval") && !o.watch:
		return usageErr("--interval needs --watch")
	case o.interval <= 0:
		return usageErr("--interval must be positive, got %s", o.interval)
	case o.timeout <= 0:
		return usageErr("--timeout must be positive, got %s", o.timeout)
	case o.maxScript <= 0:
		return usageErr("--max-script-bytes must be positive, got %d", o.maxScript)
	}
	return nil
}

func (o *syncOptions) run(ctx context.Context) error {
	server := o.server
	if server == "" {
		server = os.Getenv(teamsync.ServerEnv)
	}
	token := o.token
	if token == "" {
		token = os.Getenv(teamsync.TokenEnv)
	}
	home := o.home
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return usageErr("no home folder (%v): give --home", err)
		}
		home = h
	}
	reporting := openTeamReporting(ctx, home, o.io.Err)
	defer reporting.Close()
	client, err := teamsync.New(reporting.options(teamsync.Options{
		Server: server, Token: token, Home: home,
		MaxScriptBytes: o.maxScript, Timeout: o.timeout, AllowInsecureHTTP: o.allowHTTP,
	}))
	if err != nil {
		return usageErr("%v", err)
	}
	switch {
	case o.show:
		return o.runShow(ctx, client)
	case o.watch:
		return o.runWatch(ctx, client)
	}
	return o.runOnce(ctx, client)
}

// runShow prints the server's set for review.
func (o *syncOptions) runShow(ctx context.Context, client *teamsync.Client) error {
	p, err := client.FetchAll(ctx)
	if err != nil {
		return err
	}
	if err := p.Show(o.io.Out); err != nil {
		return err
	}
	if p.Audit {
		fmt.Fprintf(o.io.Out, "\nThis team's audit is on. Each sync sends %s\n", teamsync.AuditDescription)
	} else {
		fmt.Fprintln(o.io.Out, "\nThis team's audit is off: no decision leaves this machine. Each sync reports this machine (its id, host name, system, agenthooks version, installed revision and wired agents) to the team's fleet view.")
	}
	if p.NeedsAcceptance {
		fmt.Fprintln(o.io.Out, "\nTo install these hooks: agenthooks sync --accept")
	}
	return nil
}

// runOnce syncs once: 0 when the set is in place, 1 when anything kept
// it from being installed (the last good set then stays).
func (o *syncOptions) runOnce(ctx context.Context, client *teamsync.Client) error {
	res, err := client.Sync(ctx, o.confirm)
	if err != nil {
		return o.failure(client, err)
	}
	o.warn(res.Warnings)
	fmt.Fprintln(o.io.Out, describe(res))
	return nil
}

// runWatch syncs on a schedule until interrupted, one line per round.
func (o *syncOptions) runWatch(ctx context.Context, client *teamsync.Client) error {
	fmt.Fprintf(o.io.Err, "agenthooks: syncing %s every %s (±10%%) until interrupted\n", client.Server(), o.interval)
	return client.Watch(ctx, o.interval, o.confirm, func(r teamsync.Round) {
		stamp := r.At.UTC().Format(time.RFC3339)
		if r.Err != nil {
			fmt.Fprintf(o.io.Err, "%s %s\n", stamp, o.keptLine(client, r.Err))
			return
		}
		o.warn(r.Result.Warnings)
		fmt.Fprintf(o.io.Out, "%s %s\n", stamp, describe(r.Result))
	})
}

// describe is a successful round's line.
func describe(r *teamsync.Result) string {
	team := fmt.Sprintf("team %d", r.TeamID)
	if r.TeamName != "" {
		team = fmt.Sprintf("team %q (id %d)", teamsync.Printable(r.TeamName), r.TeamID)
	}
	sent := ""
	if r.Uploaded > 0 {
		sent = fmt.Sprintf("; %d decision(s) sent to the team's audit", r.Uploaded)
	}
	if !r.Changed {
		return fmt.Sprintf("%s: unchanged at revision %d%s", team, r.Revision, sent)
	}
	return fmt.Sprintf("%s: changed to revision %d: %d hook(s) in %s%s", team, r.Revision, r.Hooks, r.Dir, sent)
}

// failure reports a failed single sync and ends with exit 1.
func (o *syncOptions) failure(client *teamsync.Client, err error) error {
	var na *teamsync.NotAcceptedError
	if errors.As(err, &na) {
		if !o.declined { // after a "no" at the prompt the notice is on the screen already
			fmt.Fprint(o.io.Err, na.Plan.Notice())
		}
		fmt.Fprintln(o.io.Err, "agenthooks: not installed: review the hooks (agenthooks sync --show), then re-run with --accept to install them")
		return silentExit(ExitProblems)
	}
	fmt.Fprintf(o.io.Err, "agenthooks: %s\n", o.keptLine(client, err))
	return silentExit(ExitProblems)
}

// keptLine says what a failure left in place, and why.
func (o *syncOptions) keptLine(client *teamsync.Client, err error) string {
	if errors.Is(err, teamsync.ErrNotAccepted) {
		return err.Error()
	}
	last, lerr := client.LastSynced()
	if lerr != nil || last == nil || len(last.Files) == 0 {
		return "nothing synced: " + err.Error()
	}
	return fmt.Sprintf("kept the last good set (team %d, revision %d): %v", last.TeamID, last.Revision, err)
}

// warn prints the hooks left out.
func (o *syncOptions) warn(warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(o.io.Err, "agenthooks: warning: %s\n", w)
	}
}
