package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/internal/proc"
	"github.com/agenthooks/agenthooks/team/teamsync"
)

// confirm is the first-time acknowledgement (Cursor's "This team uses
// admin-enabled hooks..." with Continue / View Hooks): --accept says yes;
// on a terminal the notice is shown and the user answers; anywhere else
// the answer is no, and the failure message shows the notice
// (docs/team-sync.md).
func (o *syncOptions) confirm(ctx context.Context, p *teamsync.Plan) (bool, error) {
	if o.accept {
		return true, nil
	}
	if o.declined || !proc.IsTerminal(o.io.In) {
		return false, nil
	}
	t, err := proc.OpenTerminal()
	if err != nil {
		return false, nil // no controlling terminal after all: as if piped
	}
	defer t.Close()
	ok, err := syncAsk(ctx, t, p)
	if err == nil && !ok {
		o.declined = true
	}
	return ok, err
}

// syncAsk shows the notice and asks until the answer is yes or no: y
// installs, v shows every script first, anything else (end of input
// included) does not install. It returns early, with ctx's error, when
// ctx ends.
func syncAsk(ctx context.Context, t *proc.Terminal, p *teamsync.Plan) (bool, error) {
	answers := make(chan string)
	stop := make(chan struct{})
	defer close(stop)
	read := make(chan struct{})
	go func() {
		defer close(read)
		r := bufio.NewReaderSize(t.In(), 256)
		for {
			line, err := r.ReadString('\n')
			select {
			case answers <- line:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	if _, err := io.WriteString(t.Out(), p.Notice()); err != nil {
		return false, fmt.Errorf("write to the terminal: %w", err)
	}
	for {
		if _, err := io.WriteString(t.Out(), "Install these hooks? [y/N, v to view the scripts] "); err != nil {
			return false, fmt.Errorf("write to the terminal: %w", err)
		}
		select {
		case line := <-answers:
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "y", "yes":
				return true, nil
			case "v", "view":
				if err := p.Show(t.Out()); err != nil {
					return false, fmt.Errorf("write to the terminal: %w", err)
				}
				continue
			}
			if !strings.HasSuffix(line, "\n") {
				_, _ = io.WriteString(t.Out(), "\n")
			}
			return false, nil
		case <-ctx.Done():
			_, _ = io.WriteString(t.Out(), "\n")
			_ = t.Close() // wakes the reader where the runtime polls the terminal
			select {
			case <-read:
			case <-time.After(proc.TerminalWait):
			}
			return false, ctx.Err()
		}
	}
}
