package client

import (
	"bytes"
	"io"
	"os"

	"github.com/agenthooks/agenthooks/internal/proc"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// firstRead is what a pipe's payload is first read into: most payloads
// fit, and a buffer this small costs nothing to fault in.
const firstRead = 64 << 10

// readStdin reads the payload: into a buffer of its size when stdin is a
// file; from a pipe, into 64 KiB and, past that, into one reservation of
// the largest body (bigBuffer), so that a payload of megabytes (a file
// read, a tool's output) is neither copied as a buffer doubles nor faulted
// in page by page. Past 64 KiB the pipe is enlarged too, so its writer
// hands the rest over in a few wake-ups of this process, not hundreds.
func readStdin() ([]byte, error) {
	if fi, err := os.Stdin.Stat(); err == nil && fi.Mode().IsRegular() {
		var buf bytes.Buffer
		buf.Grow(int(min(fi.Size(), wire.MaxBody) + 1))
		_, err := buf.ReadFrom(io.LimitReader(os.Stdin, wire.MaxBody))
		return buf.Bytes(), err
	}
	return readPipe(os.Stdin, func() []byte {
		proc.GrowPipe(os.Stdin, wire.MaxBody)
		return bigBuffer()
	})
}

// readPipe reads r to its end, or to wire.MaxBody bytes, into a small
// buffer first and, when that fills, into big() (or a doubling buffer
// when big has none to give).
func readPipe(r io.Reader, big func() []byte) ([]byte, error) {
	small := make([]byte, firstRead)
	n, err := io.ReadFull(r, small)
	switch err {
	case io.EOF, io.ErrUnexpectedEOF:
		return small[:n], nil
	case nil:
	default:
		return small[:n], err
	}
	buf := big()
	if buf == nil {
		var b bytes.Buffer
		b.Write(small)
		_, err := b.ReadFrom(io.LimitReader(r, wire.MaxBody-int64(n)))
		return b.Bytes(), err
	}
	buf = append(buf[:0], small...)
	for len(buf) < cap(buf) {
		k, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}
