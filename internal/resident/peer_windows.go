//go:build windows

package resident

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"

	"github.com/agenthooks/agenthooks/internal/filelock"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// noFollow is unix's O_NOFOLLOW; here the folder's access list is the
// user's and the system's alone, and no sandbox runs commands.
const noFollow = 0

// listen listens on the named pipe of the socket path sock
// (wire.PipeName) and returns the pipe's name, which status reports.
//
// The pipe's first instance is created exclusively (FILE_CREATE: no one
// may have created the name before, another user squatting it included),
// with a security descriptor that grants the user alone (and the system)
// any access, and remote clients are rejected; every connection is then
// checked again (checkPeer). The engine it replaces may hold the name for
// a moment after it let go of the lock, so a name in use is tried again
// for a while.
func listen(sock string) (net.Listener, string, error) {
	name, err := wire.PipeName(sock)
	if err != nil {
		return nil, "", err
	}
	sid, err := wire.UserSID()
	if err != nil {
		return nil, "", err
	}
	cfg := &winio.PipeConfig{
		SecurityDescriptor: "D:P(A;;GA;;;" + sid.String() + ")(A;;GA;;;SY)",
		InputBufferSize:    64 << 10,
		OutputBufferSize:   64 << 10,
	}
	deadline := time.Now().Add(lockWait)
	for {
		ln, err := winio.ListenPipe(name, cfg)
		if err == nil {
			// The listener holds the pipe's first instance open without
			// access, which keeps clients away until it accepts; Wine
			// hands the first client that instance all the same, where
			// no one would answer it. Take it first: on Windows the pipe
			// is busy until the engine accepts, and this gives up at once.
			if c, err := wire.DialPipe(name, 0); err == nil {
				c.Close()
			}
			return ln, name, nil
		}
		if time.Now().After(deadline) || !(errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_PIPE_BUSY)) {
			return nil, "", fmt.Errorf("listen on %s: %w", name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkPeer checks that the process at the client end of c runs as the
// user (its token's user SID).
func checkPeer(c net.Conn) error {
	h, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return fmt.Errorf("not a pipe: %T", c)
	}
	return wire.CheckPipeClient(windows.Handle(h.Fd()))
}

// dialEngine opens the engine's pipe for sock and checks that its server
// runs as the user. The engine may identify this process but not act as
// it.
func dialEngine(ctx context.Context, sock string) (net.Conn, error) {
	name, err := wire.PipeName(sock)
	if err != nil {
		return nil, err
	}
	c, err := winio.DialPipeAccessImpLevel(ctx, name, windows.GENERIC_READ|windows.GENERIC_WRITE, winio.PipeImpLevelIdentification)
	if err != nil {
		if errors.Is(err, windows.ERROR_FILE_NOT_FOUND) {
			err = &os.PathError{Op: "dial", Path: name, Err: os.ErrNotExist}
		}
		return nil, fmt.Errorf("dial %s: %w", name, err)
	}
	h, ok := c.(interface{ Fd() uintptr })
	if !ok {
		c.Close()
		return nil, fmt.Errorf("dial %s: not a pipe: %T", name, c)
	}
	if err := wire.CheckPipeServer(windows.Handle(h.Fd())); err != nil {
		c.Close()
		return nil, fmt.Errorf("the engine at %s is not the user's own: %w", name, err)
	}
	return c, nil
}

// Listening reports whether an engine serves sock: its lock is held (an
// engine lets go of it once it stopped serving).
func Listening(sock string) bool { return filelock.Held(wire.LockFile(sock)) }
