package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/llm"
	"github.com/agenthooks/agenthooks/policy"
	"github.com/agenthooks/agenthooks/runner"
	"github.com/agenthooks/agenthooks/state"
	"github.com/agenthooks/agenthooks/trust"
)

// openEngine loads the engine the way every verb that runs hooks does:
// default locations (overridable by environment), the trust store of the
// config dir, and the state store that makes a series of processes behave
// like one long-lived engine (sessions, execution log). The returned
// function closes the state store.
//
// Claude Code's settings files are among the sources unless noClaude is
// set: `run --from claude` (Claude Code runs them itself) and `run
// --from copilot` (Copilot CLI reads them too).
func openEngine(ctx context.Context, roots []string, noClaude bool) (*engine.Engine, func() error, error) {
	ts, err := trust.Open(trust.DefaultDir())
	if err != nil {
		return nil, nil, err
	}
	// Before the state store opens, so a bad variable needs no cleanup.
	judge, err := llm.FromEnv(os.Getenv)
	if err != nil {
		return nil, nil, err
	}
	// A bad log variable takes its default: the hooks still run.
	so, warnings := state.OptionsFromEnv()
	for _, w := range warnings {
		fmt.Fprintln(os.Stderr, "agenthooks: warning:", w)
	}
	// Answering the agent comes first: a log write that cannot get the
	// database at once is spooled and stored by a later one.
	so.LogWait = state.DefaultLogWait
	st, err := state.Open(ctx, so)
	if err != nil {
		return nil, nil, err
	}
	loc := config.DefaultLocations(roots)
	loc.NoClaude = noClaude
	eng, err := engine.Load(engine.Options{
		Locations: loc,
		Trust:     ts,
		Sessions:  st,
		Sink:      st,
		// Session and log write failures are warned about, not lost.
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		Runners: map[string]runner.Runner{
			// `agenthooks policy FILE` hooks are evaluated in-process; every
			// other command still runs as a process.
			config.TypeCommand: policy.Runner{Fallback: runner.Command{}},
			config.TypePrompt:  runner.Prompt{Client: judge},
		},
	})
	if err != nil {
		st.Close()
		return nil, nil, err
	}
	return eng, st.Close, nil
}

// printEngineProblems reports the engine's source problems on w, one line each.
func printEngineProblems(w io.Writer, eng *engine.Engine) {
	for _, p := range eng.Problems() {
		fmt.Fprintln(w, "agenthooks:", p.Error())
	}
}
