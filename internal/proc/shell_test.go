package proc

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
)

func TestNeedsShell(t *testing.T) {
	tests := []struct {
		command string
		want    bool
	}{
		// Plain words: exec'd directly.
		{"ls", false},
		{"ls -la /tmp", false},
		{"./hooks/audit.sh", false},
		{"sub/x.sh arg", false},
		{"python3 .cursor/hooks/check.py --mode=strict", false},
		{"bun run hook.ts", false},
		{"node\thook.js", false},
		{"  cat  ", false},
		{"tool a,b +x user@host:path 50% key=value", false},
		{"/usr/bin/true", false},
		// Nothing to run: the shell decides (sh -c "" exits 0).
		{"", true},
		{"   \t ", true},
		// Shell syntax anywhere.
		{"echo $HOME", true},
		{"cat ~/x", true},
		{"ls *.go", true},
		{"ls ?.go", true},
		{"ls [ab]", true},
		{"a; b", true},
		{"a && b", true},
		{"a | b", true},
		{"a > out", true},
		{"a < in", true},
		{"(a)", true},
		{"a 'b c'", true},
		{`a "b"`, true},
		{`a b\ c`, true},
		{"a # comment", true},
		{"a\nb", true},
		{"a\rb", true},
		{"a `b`", true},
		{"a {b,c}", true},
		{"a !b", true},
		{"a ^b", true},
		{"héllo", true},
		// First words sh treats specially.
		{"FOO=1 cmd", true},
		{"%1", true},
		{"exec ./x", true},
		{"cd /tmp", true},
		{"export A", true},
		{". ./env.sh", true},
		{": noop", true},
		{"set -e", true},
		{"eval x", true},
		{"exit 3", true},
		{"source x", true},
		{"true", true},
		{"true --help", true},
		{"false", true},
		{"echo -e x", true},
		{"printf x", true},
		{"pwd", true},
		{"kill 1", true},
		{"test -f x", true},
		{"if x", true},
		{"time x", true},
		// Special words later on are plain arguments.
		{"nice echo hi", false},
		{"env FOO=1 tool", false},
	}
	for _, tt := range tests {
		if got := NeedsShell(tt.command); got != tt.want {
			t.Errorf("NeedsShell(%q) = %v, want %v", tt.command, got, tt.want)
		}
	}
}

func TestSplitWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"a", []string{"a"}},
		{" a  b\tc ", []string{"a", "b", "c"}},
		{"", nil},
		{" \t", nil},
	}
	for _, tt := range tests {
		if got := splitWords(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitWords(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestWithDefaults(t *testing.T) {
	got := Spec{Grace: -1, StdoutCap: -5}.withDefaults()
	if got.Grace != DefaultGrace || got.StdoutCap != DefaultStdoutCap || got.StderrCap != DefaultStderrCap {
		t.Errorf("withDefaults = grace %v, caps %d/%d", got.Grace, got.StdoutCap, got.StderrCap)
	}
	if DefaultStdoutCap != 64<<20 || DefaultStderrCap != 1<<20 {
		t.Errorf("default caps %d/%d, want 64 MiB and 1 MiB", DefaultStdoutCap, DefaultStderrCap)
	}
	kept := Spec{Grace: 3, StdoutCap: 7, StderrCap: 9}.withDefaults()
	if kept.Grace != 3 || kept.StdoutCap != 7 || kept.StderrCap != 9 {
		t.Errorf("withDefaults changed set values: %+v", kept)
	}
}

func TestCaptureDrain(t *testing.T) {
	tests := []struct {
		name     string
		size     int
		limit    int64
		overflow bool
	}{
		{"empty", 0, 10, false},
		{"under", 5, 10, false},
		{"exactly the cap", 10, 10, false},
		{"one past", 11, 10, true},
		{"far past in one read", (64 << 10) * 3, 100, true},
		{"large under", (64<<10)*5 + 17, (64 << 10) * 6, false},
		{"large over", (64<<10)*5 + 17, (64 << 10) * 5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := bytes.Repeat([]byte("0123456789abcdef"), tt.size/16+1)[:tt.size]
			c := &capture{name: "stdout", limit: tt.limit}
			overflow := make(chan string, 1)
			c.drain(bytes.NewReader(data), func(name string) { overflow <- name })
			want := data[:min(int64(len(data)), tt.limit)]
			if !bytes.Equal(c.buf, want) {
				t.Errorf("kept %d bytes, want the first %d", len(c.buf), len(want))
			}
			if int64(cap(c.buf)) > tt.limit {
				t.Errorf("buffer capacity %d exceeds the cap %d", cap(c.buf), tt.limit)
			}
			select {
			case name := <-overflow:
				if !tt.overflow || name != "stdout" {
					t.Errorf("overflow %q reported, want overflow=%v", name, tt.overflow)
				}
			default:
				if tt.overflow {
					t.Error("overflow not reported")
				}
			}
		})
	}
}

func TestFeedIgnoresClosedReader(t *testing.T) {
	w := &failingWriter{}
	feed(w, []byte(strings.Repeat("x", 10)))
	if !w.closed {
		t.Error("feed did not close the writer after a failed write")
	}
}

type failingWriter struct{ closed bool }

func (w *failingWriter) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }
func (w *failingWriter) Close() error              { w.closed = true; return nil }
