// Package wire is the protocol between the agenthooks client and the
// resident engine: one request and one reply per connection over a unix
// socket. It uses only the standard library, so the client that agents
// spawn for every step stays as small as a hello world.
//
// A connection carries, in order:
//
//	client → engine  header (Request) · body (the verb's stdin)
//	engine → client  header (Ack)
//	engine → client  zero or more heartbeats, then header (Reply) · stdout · stderr
//
// A header is a 4-byte big-endian length and JSON; a body is an 8-byte
// big-endian length and the bytes. Bodies are raw, so a 10 MB payload is
// copied, never encoded.
package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// Protocol is the version of this protocol. An engine that speaks another
// refuses the request, and the client runs the step itself.
const Protocol = 1

// Limits on what a peer may send: a header is small; a body is bounded by
// the largest payload a verb accepts.
const (
	MaxHeader = 1 << 20
	MaxBody   = 256<<20 + 1
)

// Request is one verb to run for a client.
type Request struct {
	Protocol int `json:"protocol"`
	// Build identifies the engine binary the client would start (see
	// Identity); an engine built from another refuses, so a replaced
	// binary is never served by an old engine.
	Build string `json:"build"`
	// Control is a request to the engine itself ("status", "stop")
	// instead of a verb.
	Control string `json:"control,omitempty"`
	// Args are the verb and its arguments, as given to agenthooks.
	Args []string `json:"args,omitempty"`
	// Dir is the client's working directory.
	Dir string `json:"dir,omitempty"`
	// Env is the client's environment: hooks inherit it.
	Env []string `json:"env,omitempty"`
	// StdinErr is why the client could not read all of its stdin; the
	// verb sees the body, then this error.
	StdinErr string `json:"stdin_err,omitempty"`
}

// Ack answers a request at once: Refused says why the engine will not run
// it (the client then runs it itself); empty means it is under way.
type Ack struct {
	Refused string `json:"refused,omitempty"`
	// Replace says the engine was started from another binary than the
	// client's and is exiting: the client starts a new one.
	Replace bool `json:"replace,omitempty"`
}

// Reply is the verb's result. Status is set for a "status" control.
type Reply struct {
	Code   int     `json:"code"`
	Status *Status `json:"status,omitempty"`
}

// Status describes a running engine.
type Status struct {
	PID      int    `json:"pid"`
	Version  string `json:"version"`
	Build    string `json:"build"`
	Socket   string `json:"socket"`
	Started  string `json:"started"` // RFC 3339
	Steps    int64  `json:"steps"`
	Active   int64  `json:"active"`
	IdleExit string `json:"idle_exit"` // a duration, e.g. "15m0s"
}

// Heartbeat is what the engine sends while a verb runs: a header of
// length zero. A client that hears nothing for a while knows the engine
// is gone or stuck, and runs the step itself.
var heartbeat = []byte{0, 0, 0, 0}

// HeartbeatEvery is how often the engine sends a heartbeat.
const HeartbeatEvery = 500 * time.Millisecond

// WriteHeader writes v as a header.
func WriteHeader(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode header: %w", err)
	}
	buf := make([]byte, 4, 4+len(b))
	binary.BigEndian.PutUint32(buf, uint32(len(b)))
	if _, err := w.Write(append(buf, b...)); err != nil {
		return fmt.Errorf("write header: %w", err)
	}
	return nil
}

// WriteHeartbeat writes one heartbeat.
func WriteHeartbeat(w io.Writer) error {
	_, err := w.Write(heartbeat)
	return err
}

// ErrHeartbeat is what ReadHeader returns for a heartbeat.
var ErrHeartbeat = errors.New("heartbeat")

// ReadHeader reads one header into v; a heartbeat gives ErrHeartbeat.
func ReadHeader(r io.Reader, v any) error {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return fmt.Errorf("read header: %w", err)
	}
	size := binary.BigEndian.Uint32(n[:])
	if size == 0 {
		return ErrHeartbeat
	}
	if size > MaxHeader {
		return fmt.Errorf("read header: %d bytes is over the limit of %d", size, MaxHeader)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return fmt.Errorf("read header: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decode header: %w", err)
	}
	return nil
}

// WriteBody writes b as a body.
func WriteBody(w io.Writer, b []byte) error {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	if _, err := w.Write(n[:]); err != nil {
		return fmt.Errorf("write body: %w", err)
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write body: %w", err)
	}
	return nil
}

// ReadBody reads one body of at most max bytes.
func ReadBody(r io.Reader, max int64) ([]byte, error) {
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	size := binary.BigEndian.Uint64(n[:])
	if size > uint64(max) {
		return nil, fmt.Errorf("read body: %d bytes is over the limit of %d", size, max)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("read body: %w", err)
	}
	return b, nil
}
