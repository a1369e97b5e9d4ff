package proc

import "io"

// readChunk is one read from an output pipe: the size of a Linux pipe
// buffer, so a busy writer is drained in one call.
const readChunk = 64 << 10

// capture keeps what one output stream wrote, up to limit bytes.
type capture struct {
	name  string // "stdout" or "stderr", the value of Result.Overflow
	limit int64
	buf   []byte
}

// drain reads r until EOF, an error, or the cap. Bytes are counted as they
// arrive; the first read that would pass the cap keeps what fits, reports
// the overflow on overflow (buffered, one send per capture) and stops, so a
// runaway writer costs at most the cap in memory and is killed by the
// supervisor instead of being read to its end.
func (c *capture) drain(r io.Reader, overflow chan<- string) {
	chunk := make([]byte, readChunk)
	for {
		n, err := r.Read(chunk)
		if n > 0 {
			if room := c.limit - int64(len(c.buf)); int64(n) > room {
				c.keep(chunk[:room])
				overflow <- c.name
				return
			}
			c.keep(chunk[:n])
		}
		if err != nil {
			// io.EOF, or os.ErrClosed after the supervisor cut us off.
			return
		}
	}
}

// keep appends p, growing the buffer geometrically but never past the
// limit, so the memory held stays about the cap.
func (c *capture) keep(p []byte) {
	if need := len(c.buf) + len(p); need > cap(c.buf) {
		size := max(2*cap(c.buf), need, 4<<10)
		size = int(min(int64(size), c.limit))
		grown := make([]byte, len(c.buf), size)
		copy(grown, c.buf)
		c.buf = grown
	}
	c.buf = append(c.buf, p...)
}

// feed writes payload to w and closes it. Errors end the write quietly: a
// hook that exits without reading its stdin makes the write fail with EPIPE
// (Go reports it instead of dying of SIGPIPE, since w is not fd 1 or 2),
// and the supervisor closes w to unblock a write nobody will read.
func feed(w io.WriteCloser, payload []byte) {
	_, _ = w.Write(payload)
	_ = w.Close()
}
