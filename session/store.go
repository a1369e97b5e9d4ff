package session

import (
	"context"
	"sync"
)

// Store keeps sessions between steps. The in-memory store serves a
// long-running host; a CLI, which is a new process per step, plugs in a
// durable one so that many processes behave like one engine.
type Store interface {
	// Get returns the session, or the zero Session when there is none.
	Get(ctx context.Context, id string) (Session, error)
	// Update applies fn atomically: no concurrent update is lost.
	Update(ctx context.Context, id string, fn func(*Session)) error
	// Delete forgets the session (after sessionEnd).
	Delete(ctx context.Context, id string) error
}

// Memory is the default Store: sessions in this process's memory.
type Memory struct {
	mu sync.Mutex
	m  map[string]Session
}

// Get implements Store.
func (m *Memory) Get(_ context.Context, id string) (Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.m[id].Clone(), nil
}

// Update implements Store.
func (m *Memory) Update(_ context.Context, id string, fn func(*Session)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = make(map[string]Session)
	}
	s := m.m[id].Clone()
	fn(&s)
	m.m[id] = s
	return nil
}

// Delete implements Store.
func (m *Memory) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.m, id)
	return nil
}
