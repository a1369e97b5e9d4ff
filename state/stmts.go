package state

import (
	"context"
	"database/sql"
	"sync"
)

// stmts keeps the statements of every step's writes (a run's records and
// payload, the log's size, a session) prepared: SQLite compiles a
// statement at each prepare, and the records' insert, with its triggers,
// was a fifth of a resident engine's time per step. database/sql keeps
// one compiled copy per connection of the pool.
type stmts struct {
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

// stmtIn returns query prepared, for use in tx.
func (s *Store) stmtIn(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	st, err := s.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return tx.StmtContext(ctx, st), nil
}

// stmt returns query prepared on the pool.
func (s *Store) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	s.stmts.mu.Lock()
	st, ok := s.stmts.m[query]
	if !ok {
		var err error
		if st, err = s.db.PrepareContext(ctx, query); err != nil {
			s.stmts.mu.Unlock()
			return nil, err
		}
		if s.stmts.m == nil {
			s.stmts.m = map[string]*sql.Stmt{}
		}
		s.stmts.m[query] = st
	}
	s.stmts.mu.Unlock()
	return st, nil
}

// closeStmts releases the prepared statements.
func (s *Store) closeStmts() {
	s.stmts.mu.Lock()
	defer s.stmts.mu.Unlock()
	for _, st := range s.stmts.m {
		st.Close()
	}
	s.stmts.m = nil
}
