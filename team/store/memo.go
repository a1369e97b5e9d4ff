package store

import (
	"context"
	"database/sql"
	"sync"
)

// memo keeps in memory what every member's poll reads: the live token
// behind a secret's digest, and each team's row (its revision). A fleet
// polls far more often than administrators change anything, so the
// common answer, "unchanged", needs no database round trip.
//
// Every change empties the memo at once: this process's writes on
// commit, other processes' writes through the store's watcher (LISTEN /
// NOTIFY on PostgreSQL, PRAGMA data_version on SQLite). While the
// watcher cannot vouch for the memo (PostgreSQL's listening connection is
// down), the memo is off and every call reads the database.
type memo struct {
	mu sync.RWMutex
	// gen counts emptyings. A value read from the database is kept only
	// if no emptying happened since the read began, so a read that
	// raced with a change cannot put the old value back.
	gen    uint64
	on     bool
	tokens map[string]Token // by hashSecret
	teams  map[int64]Team
}

func newMemo(on bool) *memo {
	return &memo{on: on, tokens: map[string]Token{}, teams: map[int64]Team{}}
}

// token returns the memo's token for a secret's hash.
func (m *memo) token(hash string) (Token, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	t, ok := m.tokens[hash]
	return t, ok && m.on
}

// team returns the memo's row of a team.
func (m *memo) team(id int64) (Team, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	t, ok := m.teams[id]
	return t, ok && m.on
}

// begin marks the start of a database read whose result may be kept.
func (m *memo) begin() uint64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.gen
}

func (m *memo) keepToken(gen uint64, hash string, t Token) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.on && m.gen == gen {
		m.tokens[hash] = t
	}
}

func (m *memo) keepTeam(gen uint64, t Team) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.on && m.gen == gen {
		m.teams[t.ID] = t
	}
}

// forget empties the memo: something changed.
func (m *memo) forget() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.emptyLocked()
}

// turn empties the memo and turns it on or off.
func (m *memo) turn(on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.emptyLocked()
	m.on = on
}

func (m *memo) emptyLocked() {
	m.gen++
	clear(m.tokens)
	clear(m.teams)
}

// watcher tells the memo of changes other processes make.
type watcher interface {
	// check runs before the memo is consulted; it may empty it.
	check(ctx context.Context)
	// notify runs inside each write transaction, before its commit.
	notify(ctx context.Context, tx *sql.Tx) error
	// stop ends the watcher and waits for it.
	stop()
}

// noWatch is the watcher of a store that is still opening.
type noWatch struct{}

func (noWatch) check(context.Context) {}

func (noWatch) notify(context.Context, *sql.Tx) error { return nil }

func (noWatch) stop() {}
