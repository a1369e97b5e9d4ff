package load

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"
)

// events is the servers' log as the run reads it: it counts the
// failures that answer no request (the fleet's writes, the pruner's) and
// notes when a pruning ends. It keeps no line.
type events struct {
	mu            sync.Mutex
	fleetFailures int
	pruneFailures int
	pruned        int64
	prunedAt      time.Time
	longestChunk  time.Duration
	lastFailure   string
}

func (e *events) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelInfo }

func (e *events) Handle(_ context.Context, rec slog.Record) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case strings.Contains(rec.Message, "machines' reports") && rec.Level >= slog.LevelWarn:
		e.fleetFailures++
		e.lastFailure = rec.Message + ": " + errAttr(rec)
	case strings.HasPrefix(rec.Message, "could not prune"):
		e.pruneFailures++
		e.lastFailure = rec.Message + ": " + errAttr(rec)
	case strings.HasPrefix(rec.Message, "pruned decisions"):
		rec.Attrs(func(a slog.Attr) bool {
			switch a.Key {
			case "deleted":
				e.pruned += a.Value.Int64()
			case "longest_write_ms":
				e.longestChunk = max(e.longestChunk, time.Duration(a.Value.Float64()*float64(time.Millisecond)))
			}
			return true
		})
		e.prunedAt = time.Now()
	}
	return nil
}

func errAttr(rec slog.Record) string {
	s := ""
	rec.Attrs(func(a slog.Attr) bool {
		if a.Key == "err" {
			s = a.Value.String()
		}
		return true
	})
	return s
}

func (e *events) WithAttrs([]slog.Attr) slog.Handler { return e }

func (e *events) WithGroup(string) slog.Handler { return e }

// prunedSince reports the rows the pruner reported deleting and when it
// last reported, if after t.
func (e *events) prunedSince(t time.Time) (int64, time.Time, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.pruned, e.prunedAt, e.prunedAt.After(t)
}

func bearer(secret string) connect.Option {
	return connect.WithInterceptors(connect.UnaryInterceptorFunc(func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			req.Header().Set("Authorization", "Bearer "+secret)
			return next(ctx, req)
		}
	}))
}
