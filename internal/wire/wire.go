// Package wire is the protocol between the agenthooks client and the
// resident engine: one request and one reply per connection over a unix
// socket, or a named pipe on Windows. It uses only the standard library
// (and the system calls of golang.org/x/sys), so the client that agents
// spawn for every step stays as small as a hello world. Both sides also
// find here where the socket lives (Dir), how each checks the other
// (CheckPeerFD: the user's, and no more confined), and how agenthooks'
// secrets reach a process of the engine binary without its environment
// (PassSecrets, TakeSecrets; docs/sandbox.md, the threat model).
//
// A connection carries, in order:
//
//	client → engine  header (Request) · body (the verb's stdin)
//	engine → client  header (Ack)
//	engine → client  zero or more heartbeats, then header (Reply) · stdout · stderr
//
// The engine refuses a request in its Ack at once; an accepted one is
// acknowledged with its first heartbeat or, when it is answered sooner,
// in the same write as its reply.
//
// A header is a 4-byte big-endian length and a list of fields (length 0
// is a heartbeat); a body is an 8-byte big-endian length and the bytes. Bodies are raw, so a 10 MB payload is
// copied, never encoded.
package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"
)

// Protocol is the version of this protocol. It is part of the socket's
// name, so a client never meets an engine that frames messages another
// way; an engine that gets a request of another version refuses it and
// makes way.
const Protocol = 3

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
	// Call is the verb as the engine runs it, read from Args by the
	// client (ParseCall); nil for a control.
	Call *Call `json:"-"`
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
	// Waiting is why the engine runs no steps yet (each runs in its
	// client's process meanwhile), or empty.
	Waiting string `json:"waiting,omitempty"`
}

// Heartbeat is what the engine sends while a verb runs: a header of
// length zero. A client that hears nothing for a while knows the engine
// is gone or stuck, and runs the step itself.
var heartbeat = []byte{0, 0, 0, 0}

// HeartbeatEvery is how often the engine sends a heartbeat.
const HeartbeatEvery = 500 * time.Millisecond

// A header is a list of fields, each a uvarint length and its bytes: no
// reflection, so a client spends microseconds, not a cold encoder's
// hundreds, on it.

// writeFields writes one header.
func writeFields(w io.Writer, fields ...string) error {
	n := 0
	for _, f := range fields {
		n += binary.MaxVarintLen64 + len(f)
	}
	buf := make([]byte, 4, 4+n)
	for _, f := range fields {
		buf = binary.AppendUvarint(buf, uint64(len(f)))
		buf = append(buf, f...)
	}
	binary.BigEndian.PutUint32(buf, uint32(len(buf)-4))
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("write header: %w", err)
	}
	return nil
}

// readFields reads one header; a heartbeat gives ErrHeartbeat.
func readFields(r io.Reader) ([]string, error) {
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	size := binary.BigEndian.Uint32(n[:])
	if size == 0 {
		return nil, ErrHeartbeat
	}
	if size > MaxHeader {
		return nil, fmt.Errorf("read header: %d bytes is over the limit of %d", size, MaxHeader)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fmt.Errorf("read header: %w", err)
	}
	var fields []string
	for len(b) > 0 {
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, errors.New("read header: a field runs past the header")
		}
		fields = append(fields, string(b[k:k+int(l)]))
		b = b[k+int(l):]
	}
	return fields, nil
}

// WriteRequest writes a request's header.
func WriteRequest(w io.Writer, r *Request) error {
	f := []string{strconv.Itoa(r.Protocol), r.Build, r.Control, r.Dir, r.StdinErr, strconv.Itoa(len(r.Args))}
	f = append(f, r.Args...)
	f = append(f, callFields(r.Call)...)
	return writeFields(w, append(f, r.Env...)...)
}

// ReadRequest reads a request's header. A request of another protocol
// keeps only its Protocol, so the engine can refuse it.
func ReadRequest(rd io.Reader, r *Request) error {
	f, err := readFields(rd)
	if err != nil {
		return err
	}
	if len(f) < 1 {
		return errors.New("read request: empty header")
	}
	if r.Protocol, err = strconv.Atoi(f[0]); err != nil || r.Protocol != Protocol {
		return nil
	}
	if len(f) < 6 {
		return errors.New("read request: short header")
	}
	r.Build, r.Control, r.Dir, r.StdinErr = f[1], f[2], f[3], f[4]
	n, err := strconv.Atoi(f[5])
	if err != nil || n < 0 || n > len(f)-6 {
		return errors.New("read request: bad argument count")
	}
	r.Args = f[6 : 6+n]
	c, rest, ok := readCall(f[6+n:])
	if !ok {
		return errors.New("read request: bad call")
	}
	r.Call, r.Env = c, rest
	return nil
}

// WriteAck writes an acknowledgement.
func WriteAck(w io.Writer, a Ack) error {
	replace := ""
	if a.Replace {
		replace = "1"
	}
	return writeFields(w, a.Refused, replace)
}

// ReadAck reads an acknowledgement.
func ReadAck(r io.Reader) (Ack, error) {
	f, err := readFields(r)
	if err != nil {
		return Ack{}, err
	}
	if len(f) != 2 {
		return Ack{}, errors.New("read acknowledgement: bad header")
	}
	return Ack{Refused: f[0], Replace: f[1] == "1"}, nil
}

// WriteReply writes a reply's header.
func WriteReply(w io.Writer, r Reply) error {
	st := ""
	if r.Status != nil {
		b, err := json.Marshal(r.Status)
		if err != nil {
			return fmt.Errorf("encode status: %w", err)
		}
		st = string(b)
	}
	return writeFields(w, strconv.Itoa(r.Code), st)
}

// ReadReply reads a reply's header; a heartbeat gives ErrHeartbeat.
func ReadReply(rd io.Reader) (Reply, error) {
	f, err := readFields(rd)
	if err != nil {
		return Reply{}, err
	}
	if len(f) != 2 {
		return Reply{}, errors.New("read reply: bad header")
	}
	var r Reply
	if r.Code, err = strconv.Atoi(f[0]); err != nil {
		return Reply{}, fmt.Errorf("read reply: exit code %q", f[0])
	}
	if f[1] != "" {
		r.Status = &Status{}
		if err := json.Unmarshal([]byte(f[1]), r.Status); err != nil {
			return Reply{}, fmt.Errorf("read reply: status: %w", err)
		}
	}
	return r, nil
}

// WriteHeartbeat writes one heartbeat.
func WriteHeartbeat(w io.Writer) error {
	_, err := w.Write(heartbeat)
	return err
}

// ErrHeartbeat is what a read of a header returns for a heartbeat.
var ErrHeartbeat = errors.New("heartbeat")

// WriteBody writes b as a body.
//
// A small body goes out with its length in one write. An empty one is its
// length alone: a write of nothing is still a system call, which fails
// with EPIPE when the peer has already read the length, answered and
// hung up, and would turn a complete exchange into a failed one.
func WriteBody(w io.Writer, b []byte) error {
	if len(b) <= smallBody {
		buf := make([]byte, 8, 8+len(b))
		binary.BigEndian.PutUint64(buf, uint64(len(b)))
		if _, err := w.Write(append(buf, b...)); err != nil {
			return fmt.Errorf("write body: %w", err)
		}
		return nil
	}
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

// smallBody is the largest body copied to go out with its length.
const smallBody = 64 << 10

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
