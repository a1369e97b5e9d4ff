package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// changesChannel is the PostgreSQL notification channel every write
// transaction notifies, and every replica listens on.
const changesChannel = "agenthooks_team_changes"

// Timings of the listening connection.
const (
	// pgPingEvery bounds how long a connection that died without a word
	// (a network cut) keeps the memo on: after this much quiet the
	// listener pings, and a ping that fails turns the memo off.
	pgPingEvery   = 5 * time.Second
	pgPingTimeout = 2 * time.Second
	pgDialTimeout = 10 * time.Second
	pgRetryMax    = 5 * time.Second
)

// pgWatch listens for other replicas' changes (LISTEN/NOTIFY) on a
// connection of its own. The memo is on only while it listens: from the
// LISTEN until the connection fails, after which every call reads the
// database until it listens again.
type pgWatch struct {
	m      *memo
	dsn    string
	cancel context.CancelFunc
	done   chan struct{}
}

func newPGWatch(dsn string, m *memo) *pgWatch {
	m.turn(false)
	ctx, cancel := context.WithCancel(context.Background())
	w := &pgWatch{m: m, dsn: dsn, cancel: cancel, done: make(chan struct{})}
	go w.run(ctx)
	return w
}

func (w *pgWatch) run(ctx context.Context) {
	defer close(w.done)
	delay := 100 * time.Millisecond
	for {
		began := time.Now()
		_ = w.listen(ctx)
		w.m.turn(false)
		if time.Since(began) > pgRetryMax {
			delay = 100 * time.Millisecond
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		delay = min(2*delay, pgRetryMax)
	}
}

// listen connects, listens and empties the memo at each notification,
// until the connection fails or ctx ends.
func (w *pgWatch) listen(ctx context.Context) error {
	dctx, cancel := context.WithTimeout(ctx, pgDialTimeout)
	conn, err := pgx.Connect(dctx, w.dsn)
	cancel()
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		conn.Close(cctx)
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+changesChannel); err != nil {
		return err
	}
	w.m.turn(true)
	for {
		wctx, cancel := context.WithTimeout(ctx, pgPingEvery)
		_, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			w.m.forget()
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			pctx, cancel := context.WithTimeout(ctx, pgPingTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return err
			}
		default:
			return err
		}
	}
}

func (w *pgWatch) check(context.Context) {}

func (w *pgWatch) notify(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, "NOTIFY "+changesChannel)
	return err
}

func (w *pgWatch) stop() {
	w.cancel()
	<-w.done
	w.m.turn(false)
}
