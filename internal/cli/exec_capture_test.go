package cli

import (
	"bytes"
	"fmt"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

func TestExecCaptureKeepsAllUnderLimit(t *testing.T) {
	c := newExecCapture(16)
	for _, p := range []string{"hello ", "", "world", "!"} {
		if n, err := c.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if got := c.String(); got != "hello world!" {
		t.Errorf("String() = %q", got)
	}
	// Exactly at the limit nothing is left out either.
	c = newExecCapture(8)
	_, _ = c.Write([]byte("abcdefgh"))
	if got := c.String(); got != "abcdefgh" {
		t.Errorf("at the limit: %q", got)
	}
}

// The kept tail is the last bytes written, whatever the sizes of the
// writes that brought them: compare with the plain answer for many ways of
// cutting the same stream.
func TestExecCaptureHeadAndTail(t *testing.T) {
	var stream bytes.Buffer
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&stream, "line %03d\n", i)
	}
	data := stream.Bytes()
	const limit = 100
	want := fmt.Sprintf("%s\n[agenthooks: %d bytes of output left out]\n%s",
		data[:limit/2], len(data)-limit, data[len(data)-limit/2:])
	for _, chunk := range []int{1, 3, 7, 49, 50, 51, 100, 1000, len(data)} {
		c := newExecCapture(limit)
		for p := data; len(p) > 0; {
			k := min(chunk, len(p))
			_, _ = c.Write(p[:k])
			p = p[k:]
		}
		if got := c.String(); got != want {
			t.Errorf("chunks of %d:\n got %q\nwant %q", chunk, got, want)
		}
		if c.Total() != int64(len(data)) {
			t.Errorf("chunks of %d: Total() = %d, want %d", chunk, c.Total(), len(data))
		}
	}
}

// A character cut in two at either end of the gap is dropped whole rather
// than becoming a replacement character.
func TestExecCaptureCutsWholeCharacters(t *testing.T) {
	c := newExecCapture(8)
	_, _ = c.Write([]byte("abc€" + strings.Repeat("x", 20) + "€yz")) // € is 3 bytes
	got := c.String()
	if !strings.HasPrefix(got, "abc\n[agenthooks: ") || !strings.HasSuffix(got, "]\nyz") {
		t.Errorf("String() = %q", got)
	}
	if !strings.Contains(got, "[agenthooks: 26 bytes of output left out]") {
		t.Errorf("String() = %q: the count must include the dropped bytes", got)
	}
}

func TestExecRelayKeepsDraining(t *testing.T) {
	c := newExecCapture(64)
	r := &execRelay{c: c, w: failingWriter{}}
	for i := 0; i < 3; i++ {
		if n, err := r.Write([]byte("ab")); n != 2 || err != nil {
			t.Fatalf("Write = %d, %v: a failed stdout must not stop the relay", n, err)
		}
	}
	if c.String() != "ababab" {
		t.Errorf("captured %q", c.String())
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, fmt.Errorf("gone") }

// What sh makes of the quoted line is the argv it came from.
func TestExecQuoteRoundTripsThroughSh(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh quoting")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	args := []string{"printf", `%s\n`, "plain", "two words", "it's", `back\slash`, `"dq"`, "$HOME", "*", "", "a\nb", "-n", "x=1", "tab\there", "é€"}
	line := execQuoteArgs(args)
	out, err := exec.Command("sh", "-c", line).Output()
	if err != nil {
		t.Fatalf("sh -c %s: %v", line, err)
	}
	want := strings.Join(args[2:], "\n") + "\n"
	if string(out) != want {
		t.Errorf("sh -c %s\n got %q\nwant %q", line, out, want)
	}
}
