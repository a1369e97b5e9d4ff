package proc

import "io"

// minRead is the least free room a read is given. Reads go straight into
// the kept buffer, which starts small and doubles: a hook answers with a
// few bytes far more often than with megabytes, and a large per-read chunk
// allocated on every spawn costs more than the spawn's own bookkeeping.
const minRead = 512

// capture keeps what one output stream wrote, up to limit bytes.
type capture struct {
	name  string // "stdout" or "stderr", the value of Result.Overflow
	limit int64
	buf   []byte
}

// drain reads r until EOF, an error, or the cap. Past the cap it keeps
// nothing more, reports the overflow (once) and stops, so a runaway writer
// costs at most the cap in memory and is killed by the supervisor instead
// of being read to its end.
func (c *capture) drain(r io.Reader, overflow func(name string)) {
	var probe [minRead]byte
	for {
		var (
			n   int
			err error
		)
		if int64(len(c.buf)) >= c.limit {
			// Full: any further byte is an overflow.
			n, err = r.Read(probe[:])
			if n > 0 {
				overflow(c.name)
				return
			}
		} else {
			c.grow()
			n, err = r.Read(c.buf[len(c.buf):cap(c.buf)])
			c.buf = c.buf[:len(c.buf)+n]
		}
		if err != nil {
			// io.EOF, or os.ErrClosed after the supervisor cut us off.
			return
		}
	}
}

// grow makes room for at least minRead bytes (or what is left under the
// cap), doubling the buffer but never past the limit.
func (c *capture) grow() {
	if cap(c.buf)-len(c.buf) >= minRead || int64(cap(c.buf)) >= c.limit {
		return
	}
	size := int(min(int64(max(2*cap(c.buf), len(c.buf)+minRead)), c.limit))
	grown := make([]byte, len(c.buf), size)
	copy(grown, c.buf)
	c.buf = grown
}

// feed writes payload to w and closes it. Errors end the write quietly: a
// hook that exits without reading its stdin makes the write fail with EPIPE
// (Go reports it instead of dying of SIGPIPE, since w is not fd 1 or 2),
// and the supervisor closes w to unblock a write nobody will read.
func feed(w io.WriteCloser, payload []byte) {
	_, _ = w.Write(payload)
	_ = w.Close()
}
