package host

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/internal/settings"
	"github.com/agenthooks/agenthooks/llm"
	"github.com/agenthooks/agenthooks/policy"
	"github.com/agenthooks/agenthooks/runner"
	"github.com/agenthooks/agenthooks/session"
	"github.com/agenthooks/agenthooks/state"
	"github.com/agenthooks/agenthooks/trust"
)

// DefaultSessionWait bounds a session update behind another process's
// lock: past it the run goes on without the update, with a warning.
// EnvSessionWait sets another bound (a duration such as 5s), for machines
// where many agents' steps come at once on a slow disk.
const (
	DefaultSessionWait = time.Second
	EnvSessionWait     = "AGENTHOOKS_SESSION_WAIT"
)

// Options configures a Host. The zero value assembles everything from the
// process environment, as the agenthooks CLI does.
type Options struct {
	// Environ is the environment hooks inherit, and the one every
	// setting is read from (internal/settings lists them): the model
	// client's (AGENTHOOKS_LLM_*), the state and trust directories
	// (AGENTHOOKS_STATE_DIR, AGENTHOOKS_CONFIG_DIR, XDG_*, HOME), the
	// log's bounds, the default locations and the withheld secrets; nil
	// means os.Environ(). agenthooks' own secrets are withheld from hooks
	// (engine.SecretEnv).
	Environ []string
	// Warn receives each warning once, as it happens; nil collects them
	// for Reply.Warnings and Warnings only.
	Warn func(msg string)
	// Locations gives the sources' locations for a set of workspace
	// roots; nil means config.DefaultLocations. Locations whose Settings
	// are nil get the registry's, agents.Settings: the other agents'
	// settings files are sources of every host; those whose Getenv is nil
	// read Environ.
	Locations func(roots []string) config.Locations
	// TrustDir holds the trust store; "" means trust.DefaultDir in
	// Environ.
	TrustDir string
	// Memory keeps sessions in memory and the log in the engine's
	// in-memory ring only: no state store is opened. For a host that
	// keeps neither between runs, and for tests.
	Memory bool
}

// Host runs steps. It is safe for concurrent use; one Host serves any
// number of runs, over any workspace roots.
type Host struct {
	opts   Options
	getenv func(string) string
	trust  config.Trust
	// trustErr is why the trust store could not be read; nil once it was.
	trustErr error
	store    *state.Store
	log      *pending
	runners  map[string]runner.Runner
	sess     session.Store

	warnMu   sync.Mutex
	warned   map[string]bool
	warnings []string
	logged   int // warnings already written to the log
	opened   int // warnings raised by Open

	mu      sync.Mutex
	engines map[string]*cached
}

// Open assembles a host. It does not fail: whatever cannot be opened
// degrades, with a warning, to what still keeps every hook running.
func Open(ctx context.Context, o Options) *Host {
	o.Environ = settings.Environ(o.Environ)
	h := &Host{opts: o, warned: map[string]bool{}, engines: map[string]*cached{}}
	h.getenv = settings.Getenv(o.Environ)
	locate := h.opts.Locations
	if locate == nil {
		locate = func(roots []string) config.Locations { return config.DefaultLocations(h.getenv, roots) }
	}
	all := agents.Settings()
	h.opts.Locations = func(roots []string) config.Locations {
		loc := locate(roots)
		if loc.Settings == nil {
			loc.Settings = all
		}
		if loc.Getenv == nil {
			loc.Getenv = h.getenv
		}
		return loc
	}
	h.openTrust()
	judge := h.openJudge()
	h.runners = map[string]runner.Runner{
		// `agenthooks policy FILE` hooks are evaluated in-process; every
		// other command still runs as a process.
		config.TypeCommand: policy.Runner{Fallback: runner.Command{}},
		config.TypePrompt:  runner.Prompt{Client: judge},
	}
	h.openState(ctx)
	h.opened = len(h.warnings)
	return h
}

// openTrust opens the trust store. An unreadable one trusts no project,
// and each fail-closed project hook blocks its step meanwhile
// (config.TrustFault); Engine tries the store again at every step until
// it opens.
func (h *Host) openTrust() {
	dir := h.opts.TrustDir
	if dir == "" {
		dir = trust.DefaultDir(h.getenv)
	}
	ts, err := trust.Open(dir)
	if err != nil {
		if h.trustErr == nil {
			h.Warnf("the trust store cannot be read, so no project's hooks run until it is fixed, and a fail-closed one blocks its step (the other sources still run): %v", err)
		}
		h.trustErr = err
		h.trust = faultTrust{err}
		return
	}
	h.trust, h.trustErr = ts, nil
}

// faultTrust is a trust store that could not be read.
type faultTrust struct{ err error }

func (t faultTrust) Check(string, string, []byte) (bool, string) {
	return false, "the trust store cannot be read: " + t.err.Error()
}

func (t faultTrust) Fault() error { return t.err }

// openJudge builds the prompt hooks' model client; a bad setting gives a
// client that fails every prompt hook with that setting's error.
func (h *Host) openJudge() llm.Client {
	judge, err := llm.FromEnv(h.getenv)
	if err != nil {
		h.Warnf("prompt hooks cannot reach a model, so each fails (its failClosed applies): %v", err)
		return brokenJudge{err}
	}
	return judge
}

// openState opens the state store; one that cannot be used keeps sessions
// in memory and spools or drops the records.
func (h *Host) openState(ctx context.Context) {
	h.log = &pending{}
	if h.opts.Memory {
		h.sess = &session.Memory{}
		return
	}
	so, errs := state.OptionsFrom(h.getenv)
	if so.Dir == "" {
		so.Dir = state.DefaultDir(h.getenv)
	}
	// Neither the log nor a session update may hold up an answer for
	// long behind another process's lock.
	so.LogWait, so.SessionWait = state.DefaultLogWait, DefaultSessionWait
	if v := h.getenv(EnvSessionWait); v != "" {
		if d, err := state.ParseDuration(v); err == nil && d > 0 {
			so.SessionWait = d
		} else {
			h.Warnf("%s=%q: want a positive duration such as 5s; using the default, %v", EnvSessionWait, v, DefaultSessionWait)
		}
	}
	for _, err := range errs {
		h.Warnf("%v", err)
	}
	st, err := state.Open(ctx, so)
	if err != nil {
		h.Warnf("the state store cannot be used, so sessions last only this run and its execution records are not kept: %v", err)
		h.sess = &session.Memory{}
		return
	}
	h.store = st
	h.sess = st
}

// brokenJudge is the model client when the model settings are unusable.
type brokenJudge struct{ err error }

func (b brokenJudge) Judge(context.Context, llm.Request) (llm.Answer, error) {
	return llm.Answer{}, b.err
}

// Warnf records a warning, once per host however often it happens.
func (h *Host) Warnf(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	h.warnMu.Lock()
	if h.warned[msg] {
		h.warnMu.Unlock()
		return
	}
	h.warned[msg] = true
	h.warnings = append(h.warnings, msg)
	h.warnMu.Unlock()
	if h.opts.Warn != nil {
		h.opts.Warn(msg)
	}
}

// Warnings returns every warning so far, oldest first.
func (h *Host) Warnings() []string {
	h.warnMu.Lock()
	defer h.warnMu.Unlock()
	return slices.Clone(h.warnings)
}

// maxEngines bounds the engines a host keeps, one per set of workspace
// roots: a resident host serves every project of its user.
const maxEngines = 64

// cached is an engine and the inputs it was loaded from.
type cached struct {
	eng  *engine.Engine
	in   inputs
	used time.Time
}

// Engine returns the engine for a set of workspace roots, loading it on
// first use and again whenever a file it was loaded from changed since.
// skip names other agents' settings files whose hooks are left unread,
// for an agent that runs them itself (agent.Dialect.RunsItself).
func (h *Host) Engine(roots []string, skip config.Skip) (*engine.Engine, error) {
	key := engineKey(roots, skip)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.trustErr != nil {
		if h.openTrust(); h.trustErr == nil {
			clear(h.engines) // loaded without trust: load them again
		}
	}
	now := time.Now()
	if c, ok := h.engines[key]; ok {
		c.used = now
		if !c.in.current() {
			c.eng.Reload(context.Background())
			c.in = inputsOf(c.eng, h.trust, now)
		}
		return c.eng, nil
	}
	loc := h.opts.Locations(roots)
	loc.Skip.Hooks = append(slices.Clip(loc.Skip.Hooks), skip.Hooks...)
	loc.Skip.Plugins = append(slices.Clip(loc.Skip.Plugins), skip.Plugins...)
	e, err := engine.Load(engine.Options{
		Locations: loc,
		Trust:     h.trust,
		Sessions:  h.sess,
		Sink:      h.log,
		Logger:    h.logger(),
		Runners:   h.runners,
		Env:       h.opts.Environ,
		// agenthooks' own secrets (the team token, the model key it reads)
		// stay out of the hooks' environment.
		Withhold: engine.SecretEnv(h.getenv),
	})
	if err != nil {
		return nil, fmt.Errorf("load hooks: %w", err)
	}
	if len(h.engines) >= maxEngines {
		h.dropOldest()
	}
	h.engines[key] = &cached{eng: e, in: inputsOf(e, h.trust, now), used: now}
	return e, nil
}

// engineKey names the engine of a set of roots and skipped settings.
func engineKey(roots []string, skip config.Skip) string {
	return skip.Key() + "\x00" + strings.Join(roots, "\x00")
}

// dropOldest forgets the engine used longest ago.
func (h *Host) dropOldest() {
	var oldest string
	var t time.Time
	for k, c := range h.engines {
		if oldest == "" || c.used.Before(t) {
			oldest, t = k, c.used
		}
	}
	delete(h.engines, oldest)
}

// Flush writes the execution records kept so far. A store that is busy
// past a short wait, or unusable, spools them or drops them with a
// warning: the log never holds up an answer.
func (h *Host) Flush(ctx context.Context) {
	runs, dropped := h.log.take()
	if dropped > 0 {
		h.Warnf("the execution records of %d runs were dropped: the host did not flush the log", dropped)
	}
	if h.store == nil {
		if len(runs) > 0 && !h.opts.Memory {
			h.Warnf("the execution records of %d runs were dropped: there is no usable state store", len(runs))
		}
		return
	}
	if ws := h.warningRecords(); len(ws) > 0 {
		runs = append(runs, ws)
	}
	if err := h.store.WriteRuns(ctx, runs); err != nil {
		h.Warnf("execution records dropped: %v", err)
	}
}

// Close flushes the log and closes the state store.
func (h *Host) Close(ctx context.Context) error {
	h.Flush(ctx)
	if h.store == nil {
		return nil
	}
	return h.store.Close()
}

// StateOK reports whether the host keeps sessions and the log in its
// state store (or was asked to keep them in memory): a host that
// outlives one step should not go on without a store another process
// held for a moment at its start.
func (h *Host) StateOK() bool { return h.opts.Memory || h.store != nil }
