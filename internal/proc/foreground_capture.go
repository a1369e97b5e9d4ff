package proc

import (
	"fmt"
	"io"
	"sync"
	"unicode/utf8"
)

// headTail keeps what a command printed for the after-hooks: the first
// and the last half of its limit, and the count of what fell in between.
// A build that prints a gigabyte costs a megabyte, and the hook still sees
// how it started and, more often what matters, how it ended. It is safe
// for the concurrent writes of a command's stdout and stderr, and never
// fails, so teeing into it cannot disturb the command.
type headTail struct {
	mu      sync.Mutex
	headMax int
	tailMax int
	head    []byte
	tail    []byte // a ring once full; next is its oldest byte
	next    int
	total   int64
}

func newHeadTail(limit int) *headTail {
	return &headTail{headMax: limit / 2, tailMax: limit - limit/2}
}

// Write implements io.Writer.
func (c *headTail) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	c.total += int64(n)
	if room := c.headMax - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	c.writeTail(p)
	return n, nil
}

func (c *headTail) writeTail(p []byte) {
	if len(p) == 0 || c.tailMax == 0 {
		return
	}
	if c.tail == nil {
		c.tail = make([]byte, 0, c.tailMax)
	}
	if len(p) >= c.tailMax {
		c.tail = append(c.tail[:0], p[len(p)-c.tailMax:]...)
		c.next = 0
		return
	}
	if room := c.tailMax - len(c.tail); room > 0 {
		k := min(room, len(p))
		c.tail = append(c.tail, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		k := copy(c.tail[c.next:], p)
		p = p[k:]
		c.next = (c.next + k) % c.tailMax
	}
}

// Total is the number of bytes written, kept or not.
func (c *headTail) Total() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

// String returns what was kept. When some was left out, a line between
// head and tail says how much; the cut ends are trimmed to whole UTF-8
// characters so that a multi-byte character cut in two does not turn into
// replacement characters in the hook's JSON.
func (c *headTail) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	tail := make([]byte, 0, len(c.tail))
	tail = append(tail, c.tail[c.next:]...)
	tail = append(tail, c.tail[:c.next]...)
	kept := int64(len(c.head) + len(tail))
	if kept == c.total {
		return string(c.head) + string(tail)
	}
	head := trimCutEnd(c.head)
	tail = trimCutStart(tail)
	omitted := c.total - int64(len(head)+len(tail))
	return fmt.Sprintf("%s\n[agenthooks: %d bytes of output left out]\n%s", head, omitted, tail)
}

// trimCutEnd drops an incomplete UTF-8 sequence at the end of b.
func trimCutEnd(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if c < utf8.RuneSelf {
			return b // ASCII: nothing is cut
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			return b
		}
	}
	return b
}

// trimCutStart drops the continuation bytes of a character whose start
// was cut off.
func trimCutStart(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && i < len(b); i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}

// relay copies a command's output to w and into a capture. Unlike
// io.MultiWriter it keeps draining when w fails (our stdout went away): a
// pseudo-terminal that nobody reads would block the command for ever.
type relay struct {
	c      *headTail
	w      io.Writer
	failed bool
}

func (r *relay) Write(p []byte) (int, error) {
	_, _ = r.c.Write(p)
	if !r.failed {
		if _, err := r.w.Write(p); err != nil {
			r.failed = true
		}
	}
	return len(p), nil
}
