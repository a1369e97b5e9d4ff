package state

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agenthooks/agenthooks/session"
)

// Get returns the session of conversation id, or the zero Session when
// there is none.
func (s *Store) Get(ctx context.Context, id string) (session.Session, error) {
	q, err := s.stmt(ctx, selectSession)
	if err != nil {
		return session.Session{}, fmt.Errorf("%s: %w", s.path, err)
	}
	sess, err := scanSession(q.QueryRowContext(ctx, id), id)
	if err != nil {
		return sess, fmt.Errorf("%s: %w", s.path, err)
	}
	return sess, nil
}

// Update applies fn to the session of conversation id and stores the
// result. The read, fn and the write happen in one write transaction, so
// no concurrent update, from this process or another, is lost. fn runs
// with the database's write lock held: it must only edit the session.
func (s *Store) Update(ctx context.Context, id string, fn func(*session.Session)) error {
	err := s.writeSession(ctx, func(tx *sql.Tx) error {
		sess, err := scanSession(tx.QueryRowContext(ctx, selectSession, id), id)
		if err != nil {
			return err
		}
		fn(&sess)
		data, err := json.Marshal(sess)
		if err != nil {
			return fmt.Errorf("encode session: %w", err)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO sessions (conversation_id, data, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (conversation_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`,
			id, string(data), time.Now().UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("update session %q in %s: %w", id, s.path, err)
	}
	return nil
}

// Delete forgets the session of conversation id.
func (s *Store) Delete(ctx context.Context, id string) error {
	err := s.writeSession(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sessions WHERE conversation_id = ?`, id)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete session %q in %s: %w", id, s.path, err)
	}
	return nil
}

const selectSession = `SELECT data FROM sessions WHERE conversation_id = ?`

// scanSession reads the session of conversation id from row, the answer
// to selectSession; none stored is the zero session.
func scanSession(row *sql.Row, id string) (session.Session, error) {
	var sess session.Session
	var data string
	err := row.Scan(&data)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return sess, nil
	case err != nil:
		return sess, fmt.Errorf("read session %q: %w", id, err)
	}
	if err := json.Unmarshal([]byte(data), &sess); err != nil {
		return sess, fmt.Errorf("read session %q: stored JSON is corrupt: %w", id, err)
	}
	return sess, nil
}
