package engine

import (
	"context"
	"maps"
	"sync"
)

// Session is what the engine remembers about one conversation between
// steps: the sessionStart env and context, and the stop follow-up counts.
type Session struct {
	Env               map[string]string `json:"env,omitempty"`
	AdditionalContext string            `json:"additional_context,omitempty"`
	// LoopCounts counts consecutive automatic follow-ups, keyed by "stop"
	// or "subagentStop:<subagent>".
	LoopCounts map[string]int `json:"loop_counts,omitempty"`
}

func (s Session) clone() Session {
	s.Env = maps.Clone(s.Env)
	s.LoopCounts = maps.Clone(s.LoopCounts)
	return s
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
