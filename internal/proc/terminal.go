package proc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// Terminal is the controlling terminal, opened to ask the user a question
// (OpenTerminal): not stdin and stdout, which may be pipes of an agent.
type Terminal struct {
	in     io.Reader
	out    io.Writer
	closer func() error
}

// Close closes the terminal. It wakes a read of it where the runtime
// polls the terminal; elsewhere a reader stays until the next key, which
// is why a dialogue waits for its reader at most TerminalWait.
func (t *Terminal) Close() error { return t.closer() }

// In and Out are the terminal's ends, for a dialogue of more than one
// question.
func (t *Terminal) In() io.Reader  { return t.in }
func (t *Terminal) Out() io.Writer { return t.out }

// TerminalWait bounds how long a question waits for its reader after
// giving up on the answer: closing the terminal wakes it where the
// runtime polls the terminal, and it is bounded where it does not.
const TerminalWait = time.Second

// Ask shows the question and reads one line: y or yes is a yes, anything
// else (end of input included) a no. It returns early, with ctx's error,
// when ctx ends.
func (t *Terminal) Ask(ctx context.Context, question string) (bool, error) {
	if _, err := io.WriteString(t.out, question); err != nil {
		return false, fmt.Errorf("write to the terminal: %w", err)
	}
	answer := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReaderSize(t.in, 256).ReadString('\n')
		answer <- line
	}()
	select {
	case line := <-answer:
		a := strings.ToLower(strings.TrimSpace(line))
		return a == "y" || a == "yes", nil
	case <-ctx.Done():
		_, _ = io.WriteString(t.out, "\n")
		_ = t.Close()
		select {
		case <-answer:
		case <-time.After(TerminalWait):
		}
		return false, ctx.Err()
	}
}

// IsTerminal reports whether a stream is a terminal.
func IsTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && f != nil && term.IsTerminal(int(f.Fd()))
}
