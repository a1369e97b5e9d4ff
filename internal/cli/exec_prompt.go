package cli

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

// execTerminal is the terminal exec asks its question on: the controlling
// terminal itself, not stdin and stdout, which may be pipes of an agent.
type execTerminal struct {
	in    io.Reader
	out   io.Writer
	close func() error
}

// execAskWait bounds how long execAsk waits for its reader after giving up
// on the answer: closing the terminal wakes it where the runtime polls the
// terminal, and it is bounded where it does not.
const execAskWait = time.Second

// execAsk shows the command and the hooks' messages and reads one line:
// y or yes runs the command, anything else (end of input included) does
// not. It returns early, with ctx's error, when ctx ends.
func execAsk(ctx context.Context, t *execTerminal, question string) (bool, error) {
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
		_ = t.close()
		select {
		case <-answer:
		case <-time.After(execAskWait):
		}
		return false, ctx.Err()
	}
}

// execQuestion is the question shown: the command and the hooks' messages.
func execQuestion(command string, why []string) string {
	var b strings.Builder
	b.WriteString("agenthooks: a hook asks before this command runs:\n")
	for _, line := range strings.Split(command, "\n") {
		b.WriteString("    " + line + "\n")
	}
	for _, w := range why {
		b.WriteString("  " + strings.ReplaceAll(w, "\n", "\n  ") + "\n")
	}
	b.WriteString("Run it? [y/N] ")
	return b.String()
}

// execIsTerminal reports whether a stream is a terminal.
func execIsTerminal(s any) bool {
	f, ok := s.(*os.File)
	return ok && f != nil && term.IsTerminal(int(f.Fd()))
}
