// Package engine is agenthooks' public entry point: load the hooks of
// every source, run the ones that match a step, merge their answers into
// one Decision, and record every execution.
package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/settings"
	"github.com/agenthooks/agenthooks/runner"
	"github.com/agenthooks/agenthooks/session"
)

// Defaults.
const (
	// CursorVersion is what hooks see in cursor_version and CURSOR_VERSION
	// unless the host says otherwise.
	CursorVersion = "agenthooks"
)

// Options configures an Engine. The zero value loads the default
// locations for the current directory and runs command hooks.
type Options struct {
	// Locations of the sources; zero fields take the defaults. The other
	// agents' settings files are sources only when Locations.Settings
	// lists them: agents.Settings() for every agent's (a host fills it).
	Locations config.Locations
	// Trust decides whether project-level sources may run; nil trusts none.
	Trust config.Trust
	// Runners by hook type; "command" is added when missing.
	Runners map[string]runner.Runner
	// DefaultTimeout and PromptTimeout apply to hooks without a timeout
	// (default runner.DefaultTimeout and runner.DefaultPromptTimeout).
	DefaultTimeout, PromptTimeout time.Duration
	// MaxParallel bounds the concurrently running hooks of one step; zero means
	// max(8, 2×CPU).
	MaxParallel int
	// Sequential runs every step's hooks one after another.
	Sequential bool
	// Sessions keeps per-conversation state; nil means in memory.
	Sessions session.Store
	// Sink receives every execution record; nil keeps only the last 100
	// in memory (Log). With a sink, Log keeps no payload over 64 KiB.
	Sink audit.Sink
	// Env is the base environment of hooks; nil means os.Environ().
	Env []string
	// Withhold names variables of Env that hooks must not get: agenthooks'
	// own secrets (SecretEnv computes them). TeamTokenEnv is withheld
	// whatever the list says.
	Withhold []string
	// CursorVersion fills cursor_version when a payload lacks it.
	CursorVersion string
	// Remote sets CURSOR_CODE_REMOTE=true for hooks.
	Remote bool
	// Logger receives load problems and sink errors; nil discards.
	Logger *slog.Logger
}

// Engine runs hooks. It is safe for concurrent use; Reload swaps the
// configuration atomically while runs in flight finish on the old one.
type Engine struct {
	opts Options
	snap atomic.Pointer[snapshot]
	ring audit.Ring
	// rootsJSON is workspace_roots for payloads that lack it.
	rootsJSON json.RawMessage
	// sources are the sources of Locations.Settings: what a stored
	// session's source names stand for, the variables every hook gets the
	// workspace root in, and those no session may set.
	sources config.Sources
}

// snapshot is one loaded configuration, indexed by step for the hot path.
type snapshot struct {
	set    *config.Set
	byStep [event.NumSteps][]*config.Hook
}

// Load loads the configuration and returns a ready engine. Problems in the
// sources do not make it fail: broken sources are skipped and reported by
// Problems, as Cursor does.
func Load(opts Options) (*Engine, error) {
	if opts.DefaultTimeout <= 0 {
		opts.DefaultTimeout = runner.DefaultTimeout
	}
	if opts.PromptTimeout <= 0 {
		opts.PromptTimeout = runner.DefaultPromptTimeout
	}
	if opts.MaxParallel <= 0 {
		opts.MaxParallel = max(8, 2*runtime.NumCPU())
	}
	if opts.Sessions == nil {
		opts.Sessions = &session.Memory{}
	}
	opts.Env = settings.Environ(opts.Env)
	opts.Env = withhold(opts.Env, opts.Withhold)
	if opts.CursorVersion == "" {
		opts.CursorVersion = CursorVersion
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	runners := map[string]runner.Runner{config.TypeCommand: runner.Command{}}
	for k, v := range opts.Runners {
		runners[k] = v
	}
	runners[config.TypeUnloaded] = unloadedRunner{}
	opts.Runners = runners
	if opts.Locations.Home == "" && opts.Locations.EnterpriseFile == "" && opts.Locations.WorkspaceRoots == nil {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("default workspace root: %w", err)
		}
		loc := config.DefaultLocations(settings.Getenv(opts.Env), []string{wd})
		loc.Settings, loc.Skip = opts.Locations.Settings, opts.Locations.Skip
		opts.Locations = loc
	}
	roots := opts.Locations.WorkspaceRoots
	if roots == nil {
		roots = []string{}
	}
	rootsJSON, err := jsonplain.Marshal(roots)
	if err != nil {
		return nil, fmt.Errorf("workspace roots: %w", err)
	}
	e := &Engine{opts: opts, rootsJSON: rootsJSON, sources: config.NewSources(opts.Locations.Settings)}
	e.Reload(context.Background())
	return e, nil
}

// Reload reads every source again and swaps the configuration in.
func (e *Engine) Reload(ctx context.Context) {
	// A trust store that can re-read itself does, so trust revoked by
	// another process takes effect on the next reload.
	if r, ok := e.opts.Trust.(interface{ Reload() error }); ok {
		if err := r.Reload(); err != nil {
			e.opts.Logger.WarnContext(ctx, "trust store reload failed; keeping the trust read before", "err", err)
		}
	}
	set := config.Load(e.opts.Locations, e.opts.Trust)
	s := &snapshot{set: set}
	for _, h := range set.Hooks {
		if i := event.Index(h.Step); i >= 0 {
			s.byStep[i] = append(s.byStep[i], h)
		}
	}
	// Stand-ins for fail-closed hooks of files that could not be loaded
	// run with the step's hooks and fail, so the step blocks.
	for _, h := range set.Unloaded {
		if i := event.Index(h.Step); i >= 0 {
			s.byStep[i] = append(s.byStep[i], h)
		}
	}
	for _, p := range set.Problems {
		// Debug: hosts show Problems() their own way; warnings are kept for
		// what a host cannot see otherwise (sink and session failures).
		e.opts.Logger.LogAttrs(ctx, slog.LevelDebug, "hooks config problem", slog.String("problem", p.Error()))
	}
	e.snap.Store(s)
}

// HasHooks reports whether any hook is configured for the step (matched
// or not). Hosts call it on every action, so it neither locks nor
// allocates.
func (e *Engine) HasHooks(step event.Step) bool {
	i := event.Index(step)
	return i >= 0 && len(e.snap.Load().byStep[i]) > 0
}

// Hooks returns every loaded, runnable hook in priority order.
func (e *Engine) Hooks() []*config.Hook { return e.snap.Load().set.Hooks }

// Config returns the loaded configuration: files, hooks and problems.
func (e *Engine) Config() *config.Set { return e.snap.Load().set }

// Problems returns what was wrong with the sources at the last load.
func (e *Engine) Problems() []config.Problem { return e.snap.Load().set.Problems }

// Log returns the last 100 execution records, oldest first.
func (e *Engine) Log() []audit.Record { return e.ring.Records() }
