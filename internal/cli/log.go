package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/runner"
	"github.com/agenthooks/agenthooks/state"
)

// followBatch bounds one poll's read, so a burst of records is printed in
// steps rather than held in memory at once.
const followBatch = 500

type logOptions struct {
	io                                           *IO
	step, source, outcome, failure, conversation string
	since, until                                 string
	limit                                        int
	json, follow                                 bool
	// poll is how often --follow looks for new records.
	poll time.Duration
}

func newLogCmd(s *IO) *cobra.Command {
	o := &logOptions{io: s, poll: 200 * time.Millisecond}
	cmd := &cobra.Command{
		Use:   "log [--step S] [--source S] [--outcome O] [--failure F] [--since T] [--limit N] [--json] [--follow]",
		Short: "Show the execution log: one line per hook run, newest first",
		Long: `Log prints the execution log kept in the state database, state.db in
$AGENTHOOKS_STATE_DIR (default $XDG_STATE_HOME/agenthooks, else
~/.local/state/agenthooks): one record per hook execution, newest first, with its
time, step, source, outcome (and failure kind), duration, exit code, what the agent
tried (ACTION: the command, the file, the tool and its main argument, the prompt's
first words, redacted as stored) and the hook that judged it (HOOK: its command),
cut to fit the terminal (on a narrow one the source is left out). Filters combine;
each matches exactly. Log first has the resident engine write the steps it has
answered, so every step answered before log was called is listed.

Outcomes: allow, deny, ask, block, continue, none, answered, failed, fail-closed.
Failure kinds: invalid_output, exit_status, timeout, spawn_error, output_too_large,
model_error, canceled, unsupported, or "any" for every failed run.

--since and --until take a duration back from now (90m, 1h, 7d) or a time
(2025-06-01T15:04:05Z, 2025-06-01). --json prints one JSON object a line: the
record's fields plus "seq", its position in the log. --follow prints the last
--limit records oldest first, then every new matching record as it is written,
until interrupted.`,
		Example: `  agenthooks log --outcome deny --since 1h`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErr("log takes no arguments; filter with --step, --source, --outcome, --failure, --conversation, --since, --until")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
	}
	f := cmd.Flags()
	f.StringVar(&o.step, "step", "", "only this step, e.g. beforeShellExecution")
	f.StringVar(&o.source, "source", "", "only hooks of this source: enterprise, team, project, user, …")
	f.StringVar(&o.outcome, "outcome", "", "only this outcome: "+strings.Join(logOutcomes, ", "))
	f.StringVar(&o.failure, "failure", "", "only this failure kind ("+strings.Join(logFailures(), ", ")+`), or "any"`)
	f.StringVar(&o.conversation, "conversation", "", "only this conversation_id")
	f.StringVar(&o.since, "since", "", "only records at or after this time: a duration back (1h, 7d) or an RFC 3339 time")
	f.StringVar(&o.until, "until", "", "only records before this time: a duration back (1h, 7d) or an RFC 3339 time")
	f.IntVarP(&o.limit, "limit", "n", 50, "at most this many records; 0 for all")
	f.BoolVar(&o.json, "json", false, "one JSON object a line: the record plus its seq")
	f.BoolVarP(&o.follow, "follow", "f", false, "keep printing new records as they are written, until interrupted")
	return cmd
}

// logOutcomes are the outcomes the log records: what each hook said
// (engine.Outcome.Said), and the host's own warnings.
var logOutcomes = []string{"allow", "deny", "ask", "block", "continue", "answered", "none", "failed", "fail-closed", "warning"}

// logFailures are the failure kinds the log records.
func logFailures() []string {
	fs := []runner.Failure{runner.InvalidOutput, runner.ExitStatus, runner.Timeout, runner.SpawnError, runner.OutputTooLarge,
		runner.Canceled, runner.Unsupported, runner.MatcherTimeout, runner.Panicked, runner.HostFault, runner.ModelError}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

// query turns the flags into a state.Query; now anchors relative times.
func (o *logOptions) query(now time.Time) (state.Query, error) {
	q := state.Query{
		Step: o.step, Source: o.source, Outcome: o.outcome, Failure: o.failure,
		ConversationID: o.conversation, Limit: o.limit,
	}
	if o.step != "" && !event.Step(o.step).Known() {
		return q, usageErr("--step: unknown step %q%s", o.step, suggestStep(o.step))
	}
	if o.outcome != "" && !slices.Contains(logOutcomes, o.outcome) {
		return q, usageErr("--outcome %q: want one of %s", o.outcome, strings.Join(logOutcomes, ", "))
	}
	if o.failure != "" && o.failure != "any" && !slices.Contains(logFailures(), o.failure) {
		return q, usageErr("--failure %q: want one of %s, or any", o.failure, strings.Join(logFailures(), ", "))
	}
	if o.limit < 0 {
		return q, usageErr("--limit %d: want a count, or 0 for all", o.limit)
	}
	var err error
	if q.Since, err = parseWhen("--since", o.since, now); err != nil {
		return q, err
	}
	if q.Until, err = parseWhen("--until", o.until, now); err != nil {
		return q, err
	}
	if !q.Since.IsZero() && !q.Until.IsZero() && !q.Since.Before(q.Until) {
		return q, usageErr("--since %s is not before --until %s: nothing can match", o.since, o.until)
	}
	return q, nil
}

// parseWhen reads a --since/--until value: a duration back from now, an
// RFC 3339 time, or a date (midnight, local time). "" is the zero time.
func parseWhen(flag, v string, now time.Time) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if d, err := state.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, v, time.Local); err == nil {
		return t, nil
	}
	return time.Time{}, usageErr("%s %q: want a duration back from now (90m, 1h, 7d), an RFC 3339 time (2025-06-01T15:04:05Z) or a date (2025-06-01)", flag, v)
}

func (o *logOptions) run(ctx context.Context) error {
	q, err := o.query(time.Now())
	if err != nil {
		return err
	}
	opts, warnings := state.OptionsFrom(o.io.getenv)
	for _, w := range warnings {
		fmt.Fprintln(o.io.Err, "agenthooks: warning:", w)
	}
	// The engines write the log just after their answers: have them write
	// it now. Open then takes in what a busy store had them spool.
	flushEngines(ctx)
	store, err := state.Open(ctx, opts)
	if err != nil {
		return err
	}
	defer store.Close()

	p := newLogPrinter(o.io.Out, o.json, o.follow)
	if o.follow {
		return o.followLog(ctx, store, q, p)
	}
	entries, err := store.Records(ctx, q)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		if !o.json {
			fmt.Fprintf(o.io.Err, "agenthooks: no matching records in %s\n", store.Path())
		}
		return nil
	}
	return p.print(entries)
}

// followLog prints the last q.Limit records oldest first, then polls for
// records after the newest seen until ctx ends. Seqs are handed out in
// commit order (one writer at a time), so polling "seq > last" misses
// nothing and repeats nothing.
func (o *logOptions) followLog(ctx context.Context, store *state.Store, q state.Query, p *logPrinter) error {
	last, err := store.LastSeq(ctx)
	if err != nil {
		return ignoreCancel(ctx, err)
	}
	backlog, err := store.Records(ctx, q)
	if err != nil {
		return ignoreCancel(ctx, err)
	}
	slices.Reverse(backlog)
	if len(backlog) > 0 {
		last = backlog[len(backlog)-1].Seq
	}
	if err := p.print(backlog); err != nil {
		return err
	}
	tick := time.NewTicker(o.poll)
	defer tick.Stop()
	q.Limit = followBatch
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		for {
			q.AfterSeq = last
			fresh, err := store.Records(ctx, q)
			if err != nil {
				return ignoreCancel(ctx, err)
			}
			if len(fresh) == 0 {
				break
			}
			if err := p.print(fresh); err != nil {
				return err
			}
			last = fresh[len(fresh)-1].Seq
			if len(fresh) < followBatch {
				break
			}
		}
	}
}

// ignoreCancel treats an error caused by the user's interrupt as the end
// of --follow rather than a failure.
func ignoreCancel(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}
