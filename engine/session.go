package engine

import (
	"context"
	"maps"
	"sync"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/runner"
)

// Session is what the engine remembers about one conversation between
// steps: the sessionStart env and context, and the stop follow-up counts.
type Session struct {
	// Env is every variable the conversation's sessionStart hooks set,
	// each with the value of the highest-priority source that set it.
	Env map[string]string `json:"env,omitempty"`
	// EnvSource names, for each variable of Env, the source whose hook set
	// it (config.Source.String()). A hook sees a variable only when that
	// source is its own or one of higher priority, so a project cannot
	// reach an enterprise hook through its environment. A variable without
	// a source (a session stored by an older version) or with a name this
	// version does not know counts as set by the lowest-priority source.
	EnvSource         map[string]string `json:"env_source,omitempty"`
	AdditionalContext string            `json:"additional_context,omitempty"`
	// LoopCounts counts consecutive automatic follow-ups, keyed by "stop"
	// or "subagentStop:<subagent>".
	LoopCounts map[string]int `json:"loop_counts,omitempty"`
}

func (s Session) clone() Session {
	s.Env = maps.Clone(s.Env)
	s.EnvSource = maps.Clone(s.EnvSource)
	s.LoopCounts = maps.Clone(s.LoopCounts)
	return s
}

// lowestSource is the source of lowest priority: what a session variable
// of unknown origin is taken to come from.
const lowestSource = config.ClaudeUser

// sourceOf is the source that set the session variable name.
func (s Session) sourceOf(name string) config.Source {
	if n, ok := s.EnvSource[name]; ok {
		for src := config.Enterprise; src <= lowestSource; src++ {
			if src.String() == n {
				return src
			}
		}
	}
	return lowestSource
}

// EnvFor returns the session variables a hook of source src sees: those
// set by src or a source of higher priority, less any refused for the
// source that set them (a session stored before the refusal existed).
func (s Session) EnvFor(src config.Source) map[string]string {
	out := map[string]string{}
	for k, v := range s.Env {
		if from := s.sourceOf(k); from <= src && refusedEnv(k, from) == "" {
			out[k] = v
		}
	}
	return out
}

// setEnv records that a hook of source src set name to value. A variable
// set before by a source of higher priority keeps that value: a later
// sessionStart of the conversation (a resumed one) in which the higher
// hook failed or kept quiet must not let a lower source displace it.
func (s *Session) setEnv(name, value string, src config.Source) {
	if _, set := s.Env[name]; set && s.sourceOf(name) < src {
		return
	}
	if s.Env == nil {
		s.Env = map[string]string{}
	}
	if s.EnvSource == nil {
		s.EnvSource = map[string]string{}
	}
	s.Env[name] = value
	s.EnvSource[name] = src.String()
}

// envSource is the source of the hook whose value of the sessionStart
// variable name the merge kept: the first, in priority order, whose answer
// the merge read and that set it.
func envSource(hooks []Outcome, name string) config.Source {
	for _, o := range hooks {
		r := o.Result
		if r.Failure != runner.OK || r.Response == nil {
			continue
		}
		if _, ok := r.Response.Env[name]; ok {
			return o.Hook.Source
		}
	}
	return lowestSource
}

// SessionStore keeps sessions between steps. The in-memory store serves a
// long-running host; a CLI, which is a new process per step, plugs in a
// durable one so that many processes behave like one engine.
type SessionStore interface {
	// Get returns the session, or the zero Session when there is none.
	Get(ctx context.Context, id string) (Session, error)
	// Update applies fn atomically: no concurrent update is lost.
	Update(ctx context.Context, id string, fn func(*Session)) error
	// Delete forgets the session (after sessionEnd).
	Delete(ctx context.Context, id string) error
}

// MemorySessions is the default SessionStore.
type MemorySessions struct {
	mu sync.Mutex
	m  map[string]Session
}

// Get implements SessionStore.
func (m *MemorySessions) Get(_ context.Context, id string) (Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.m[id].clone(), nil
}

// Update implements SessionStore.
func (m *MemorySessions) Update(_ context.Context, id string, fn func(*Session)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = make(map[string]Session)
	}
	s := m.m[id].clone()
	fn(&s)
	m.m[id] = s
	return nil
}

// Delete implements SessionStore.
func (m *MemorySessions) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, id)
	return nil
}
