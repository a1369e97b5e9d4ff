package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	teamsync "github.com/agenthooks/agenthooks/team/sync"
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
	if o.declined || !execIsTerminal(o.io.In) {
		return false, nil
	}
	t, err := execOpenTerminal()
	if err != nil {
		return false, nil // no controlling terminal after all: as if piped
	}
	defer t.close()
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
func syncAsk(ctx context.Context, t *execTerminal, p *teamsync.Plan) (bool, error) {
	answers := make(chan string)
	stop := make(chan struct{})
	defer close(stop)
	read := make(chan struct{})
	go func() {
		defer close(read)
		r := bufio.NewReaderSize(t.in, 256)
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
	if _, err := io.WriteString(t.out, p.Notice()); err != nil {
		return false, fmt.Errorf("write to the terminal: %w", err)
	}
	for {
		if _, err := io.WriteString(t.out, "Install these hooks? [y/N, v to view the scripts] "); err != nil {
			return false, fmt.Errorf("write to the terminal: %w", err)
		}
		select {
		case line := <-answers:
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "y", "yes":
				return true, nil
			case "v", "view":
				if err := p.Show(t.out); err != nil {
					return false, fmt.Errorf("write to the terminal: %w", err)
				}
				continue
			}
			if !strings.HasSuffix(line, "\n") {
				_, _ = io.WriteString(t.out, "\n")
			}
			return false, nil
		case <-ctx.Done():
			_, _ = io.WriteString(t.out, "\n")
			_ = t.close() // wakes the reader where the runtime polls the terminal
			select {
			case <-read:
			case <-time.After(execAskWait):
			}
			return false, ctx.Err()
		}
	}
}
