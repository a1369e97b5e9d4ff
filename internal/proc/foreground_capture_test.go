package proc

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestForegroundCaptureKeepsAllUnderLimit(t *testing.T) {
	c := newHeadTail(16)
	for _, p := range []string{"hello ", "", "world", "!"} {
		if n, err := c.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	if got := c.String(); got != "hello world!" {
		t.Errorf("String() = %q", got)
	}
	// Exactly at the limit nothing is left out either.
	c = newHeadTail(8)
	_, _ = c.Write([]byte("abcdefgh"))
	if got := c.String(); got != "abcdefgh" {
		t.Errorf("at the limit: %q", got)
	}
}

// The kept tail is the last bytes written, whatever the sizes of the
// writes that brought them: compare with the plain answer for many ways of
// cutting the same stream.
func TestForegroundCaptureHeadAndTail(t *testing.T) {
	var stream bytes.Buffer
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&stream, "line %03d\n", i)
	}
	data := stream.Bytes()
	const limit = 100
	want := fmt.Sprintf("%s\n[agenthooks: %d bytes of output left out]\n%s",
		data[:limit/2], len(data)-limit, data[len(data)-limit/2:])
	for _, chunk := range []int{1, 3, 7, 49, 50, 51, 100, 1000, len(data)} {
		c := newHeadTail(limit)
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
func TestForegroundCaptureCutsWholeCharacters(t *testing.T) {
	c := newHeadTail(8)
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
	c := newHeadTail(64)
	r := &relay{c: c, w: &failingWriter{}}
	for i := 0; i < 3; i++ {
		if n, err := r.Write([]byte("ab")); n != 2 || err != nil {
			t.Fatalf("Write = %d, %v: a failed stdout must not stop the relay", n, err)
		}
	}
	if c.String() != "ababab" {
		t.Errorf("captured %q", c.String())
	}
}

// BenchmarkForegroundCapture measures the tee every byte of output goes through.
func BenchmarkForegroundCapture(b *testing.B) {
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 2048) // 32 KiB, a pipe read
	b.SetBytes(int64(len(chunk)))
	c := newHeadTail(CaptureLimit)
	for b.Loop() {
		_, _ = c.Write(chunk)
	}
}
