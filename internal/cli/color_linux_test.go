package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/state"
)

// openPTY opens a pseudo-terminal pair, 77 columns wide: what log writes
// to when a person runs it.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pty's terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: 77, Row: 24}); err != nil {
		t.Fatal(err)
	}
	return master, tty
}

func TestColorEnabled(t *testing.T) {
	_, tty := openPTY(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	tests := []struct {
		name    string
		w       io.Writer
		noColor string
		term    string
		want    bool
	}{
		{"terminal", tty, "", "xterm", true},
		{"terminal, NO_COLOR", tty, "1", "xterm", false},
		{"terminal, empty NO_COLOR", tty, "", "xterm", true},
		{"dumb terminal", tty, "", "dumb", false},
		{"pipe", pw, "", "xterm", false},
		{"buffer", &bytes.Buffer{}, "", "xterm", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", tt.noColor)
			t.Setenv("TERM", tt.term)
			if got := colorEnabled(tt.w); got != tt.want {
				t.Errorf("colorEnabled = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOutputWidth(t *testing.T) {
	_, tty := openPTY(t)
	t.Setenv("COLUMNS", "55")
	if got := outputWidth(tty); got != 77 {
		t.Errorf("terminal: width %d, want its 77 columns", got)
	}
	if got := outputWidth(&bytes.Buffer{}); got != 55 {
		t.Errorf("not a terminal: width %d, want $COLUMNS 55", got)
	}
	t.Setenv("COLUMNS", "")
	if got := outputWidth(&bytes.Buffer{}); got != defaultWidth {
		t.Errorf("no COLUMNS: width %d, want %d", got, defaultWidth)
	}
}

// TestLogOnTerminal runs the verb with a real terminal as stdout: colours
// on, lines cut to the terminal's width.
func TestLogOnTerminal(t *testing.T) {
	master, tty := openPTY(t)
	t.Setenv("NO_COLOR", "")
	t.Setenv("TERM", "xterm")
	dir := t.TempDir()
	t.Setenv("AGENTHOOKS_STATE_DIR", dir)
	s, err := state.Open(t.Context(), state.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	err = s.Write(t.Context(), []audit.Record{
		{Time: now, Step: "beforeShellExecution", Source: "user", Outcome: "deny", Command: strings.Repeat("x", 200)},
		{Time: now, Step: "stop", Source: "team", Outcome: "allow", Command: "ok.sh"},
	})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}

	var errb bytes.Buffer
	if code := Execute(&IO{In: strings.NewReader(""), Out: tty, Err: &errb}, []string{"log"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	tty.Close()
	var got bytes.Buffer
	_, _ = io.Copy(&got, master) // ends with EIO once the terminal is closed
	out := got.String()
	for _, want := range []string{ansiBold + "TIME", ansiRed + "deny", ansiGreen + "allow", ansiDim} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%q", want, out)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		plain := strings.TrimRight(stripANSI(line), "\r")
		if n := len([]rune(plain)); n > 77 {
			t.Errorf("line of %d columns on a 77-column terminal: %q", n, plain)
		}
	}
}

// stripANSI removes the escape sequences log writes.
func stripANSI(s string) string {
	for _, code := range []string{ansiReset, ansiBold, ansiDim, ansiRed, ansiGreen, ansiYellow} {
		s = strings.ReplaceAll(s, code, "")
	}
	return s
}
