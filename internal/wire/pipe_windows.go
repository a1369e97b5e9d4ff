//go:build windows

package wire

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/windows"
)

// The user of a process on Windows is its token's user SID: both ends of
// the engine's pipe check that the other end's is their own, as both ends
// of the unix socket compare user ids.

var (
	selfOnce sync.Once
	selfSID  *windows.SID
	selfErr  error
)

// userSID is this process's user.
func userSID() (*windows.SID, error) {
	selfOnce.Do(func() {
		tu, err := windows.GetCurrentProcessToken().GetTokenUser()
		if err != nil {
			selfErr = fmt.Errorf("this process's user: %w", err)
			return
		}
		selfSID, selfErr = tu.User.Sid.Copy()
	})
	return selfSID, selfErr
}

// UserSID returns this process's user SID.
func UserSID() (*windows.SID, error) { return userSID() }

// ProcessSID returns the user SID of the process pid.
func ProcessSID(pid uint32) (*windows.SID, error) {
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return nil, fmt.Errorf("process %d: %w", pid, err)
	}
	defer windows.CloseHandle(p)
	var t windows.Token
	if err := windows.OpenProcessToken(p, windows.TOKEN_QUERY, &t); err != nil {
		return nil, fmt.Errorf("process %d: token: %w", pid, err)
	}
	defer t.Close()
	tu, err := t.GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("process %d: user: %w", pid, err)
	}
	return tu.User.Sid.Copy()
}

// SameUser reports whether a and b are the same valid SID.
func SameUser(a, b *windows.SID) bool {
	return a != nil && b != nil && a.IsValid() && b.IsValid() && windows.EqualSid(a, b)
}

// CheckPeerSID returns nil when the process at the other end of a pipe
// (pid, with its user SID found by sidOf) is want's; else why not.
func CheckPeerSID(side string, pid uint32, err error, want *windows.SID, sidOf func(uint32) (*windows.SID, error)) error {
	if err != nil {
		return fmt.Errorf("the pipe's %s: %w", side, err)
	}
	got, err := sidOf(pid)
	if err != nil {
		return fmt.Errorf("the pipe's %s: %w", side, err)
	}
	if !SameUser(got, want) {
		return fmt.Errorf("the pipe's %s (process %d) runs as %s, not as %s", side, pid, got, want)
	}
	return nil
}

// CheckPipeServer checks that the process serving the pipe h is the
// user's own.
func CheckPipeServer(h windows.Handle) error {
	want, err := wantSID()
	if err != nil {
		return err
	}
	var pid uint32
	err = windows.GetNamedPipeServerProcessId(h, &pid)
	return CheckPeerSID("server", pid, err, want, ProcessSID)
}

// CheckPipeClient checks that the process at the client end of the pipe
// h is the user's own.
func CheckPipeClient(h windows.Handle) error {
	want, err := wantSID()
	if err != nil {
		return err
	}
	var pid uint32
	err = windows.GetNamedPipeClientProcessId(h, &pid)
	return CheckPeerSID("client", pid, err, want, ProcessSID)
}

// peerSID, when set, is the user SID the other end of a pipe must have
// instead of this process's (SetPeerSID).
var peerSID atomic.Pointer[windows.SID]

// SetPeerSID makes both ends of this process's pipes expect the other end
// to run as sid instead of this process's user, and nil undoes it: a test
// plays another user with it.
func SetPeerSID(sid *windows.SID) { peerSID.Store(sid) }

// wantSID is the user SID the other end of a pipe must have.
func wantSID() (*windows.SID, error) {
	if sid := peerSID.Load(); sid != nil {
		return sid, nil
	}
	return userSID()
}

// PipeConn is the client's end of the engine's pipe, used with plain
// system calls and overlapped I/O, so that every read and write has a
// time limit: an engine that hangs never hangs the client.
type PipeConn struct {
	h        windows.Handle
	rd, wr   *windows.Overlapped
	rto, wto time.Duration
	// buf holds the buffer of the operation under way: storing it makes
	// every caller's buffer live on the heap, where the system may write
	// into it while the goroutine's stack moves.
	buf [2][]byte
}

// DialPipe opens the pipe name, waiting at most timeout while all its
// instances are busy. The server may identify the client but not act as
// it (SECURITY_IDENTIFICATION). Nothing is checked yet: see
// CheckPipeServer.
func DialPipe(name string, timeout time.Duration) (*PipeConn, error) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	var h windows.Handle
	for {
		h, err = windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
			windows.FILE_FLAG_OVERLAPPED|windows.SECURITY_SQOS_PRESENT|windows.SECURITY_IDENTIFICATION, 0)
		if err == nil {
			break
		}
		if err == windows.ERROR_PIPE_BUSY && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
			continue
		}
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	c := &PipeConn{h: h, rto: timeout, wto: timeout}
	for _, o := range []**windows.Overlapped{&c.rd, &c.wr} {
		ev, err := windows.CreateEvent(nil, 1, 0, nil)
		if err != nil {
			c.Close()
			return nil, fmt.Errorf("open %s: event: %w", name, err)
		}
		*o = &windows.Overlapped{HEvent: ev}
	}
	return c, nil
}

// Handle is the pipe's handle.
func (c *PipeConn) Handle() windows.Handle { return c.h }

// SetReadTimeout bounds each read from now on; SetWriteTimeout each
// write. Zero means no limit.
func (c *PipeConn) SetReadTimeout(d time.Duration)  { c.rto = d }
func (c *PipeConn) SetWriteTimeout(d time.Duration) { c.wto = d }

// Read reads what the server sent; io.EOF once it closed its end.
func (c *PipeConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n, err := c.do(0, p)
	if n == 0 && err == nil {
		err = io.EOF
	}
	return n, err
}

// Write writes all of p, or fails.
func (c *PipeConn) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := c.do(1, p[done:])
		done += n
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

// do runs one read (op 0) or write (op 1) and waits for it, at most the
// timeout; an operation that times out is cancelled and reports
// os.ErrDeadlineExceeded.
func (c *PipeConn) do(op int, p []byte) (int, error) {
	o, timeout, call := c.rd, c.rto, windows.ReadFile
	if op == 1 {
		o, timeout, call = c.wr, c.wto, windows.WriteFile
	}
	c.buf[op] = p
	defer func() { c.buf[op] = nil }()
	var n uint32
	err := call(c.h, p, &n, o)
	if err == windows.ERROR_IO_PENDING {
		wait := uint32(windows.INFINITE)
		if timeout > 0 {
			wait = uint32(min(timeout.Milliseconds()+1, windows.INFINITE-1))
		}
		ev, werr := windows.WaitForSingleObject(o.HEvent, wait)
		if ev != windows.WAIT_OBJECT_0 {
			// Timed out (or the wait failed): cancel, and wait for the
			// cancellation, which may also find the operation done.
			_ = windows.CancelIoEx(c.h, o)
			if err = windows.GetOverlappedResult(c.h, o, &n, true); err == nil {
				return int(n), nil
			}
			if werr != nil {
				return int(n), werr
			}
			return int(n), os.ErrDeadlineExceeded
		}
		err = windows.GetOverlappedResult(c.h, o, &n, true)
	} else if err == nil {
		err = windows.GetOverlappedResult(c.h, o, &n, true)
	}
	switch {
	case err == nil:
		return int(n), nil
	case err == windows.ERROR_BROKEN_PIPE || err == windows.ERROR_PIPE_NOT_CONNECTED || err == windows.ERROR_NO_DATA:
		if op == 0 {
			return int(n), io.EOF
		}
		return int(n), errors.New("the engine closed the pipe")
	}
	return int(n), err
}

// Close closes the pipe.
func (c *PipeConn) Close() error {
	err := windows.CloseHandle(c.h)
	for _, o := range []*windows.Overlapped{c.rd, c.wr} {
		if o != nil {
			_ = windows.CloseHandle(o.HEvent)
		}
	}
	return err
}
