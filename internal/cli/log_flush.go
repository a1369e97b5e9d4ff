package cli

import (
	"context"
	"path/filepath"
	"time"

	"github.com/agenthooks/agenthooks/internal/resident"
)

// logFlushWait bounds how long log waits for the engines to write what
// they hold: a busy store spools the records instead, which log reads.
const logFlushWait = 3 * time.Second

// flushEngines asks every resident engine of the user's to write the log
// of the steps it answered, which it otherwise does just after, so that
// log lists every step answered before it was called. No engine, or one
// that does not know the request (an older version), is no error: log
// then shows what is written.
func flushEngines(ctx context.Context) {
	sock, err := defaultSocket()
	if err != nil {
		return
	}
	socks, err := allSockets(filepath.Dir(sock))
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, logFlushWait)
	defer cancel()
	for _, s := range socks {
		_, _ = resident.Control(ctx, s, resident.ControlFlush)
	}
}
