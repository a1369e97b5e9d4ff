package resident

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// Control sends a control request (ControlStatus, ControlStop) to the
// engine at sock and returns its status. An error means no engine of the
// user's answered; a connection cut short is tried once more.
func Control(ctx context.Context, sock, control string) (*wire.Status, error) {
	st, err := control1(ctx, sock, control)
	if err != nil && !errors.Is(err, fs.ErrNotExist) && ctx.Err() == nil {
		time.Sleep(50 * time.Millisecond)
		var err2 error
		if st, err2 = control1(ctx, sock, control); err2 != nil {
			return nil, fmt.Errorf("%w (and again: %v)", err, err2)
		}
		return st, nil
	}
	return st, err
}

func control1(ctx context.Context, sock, control string) (*wire.Status, error) {
	if err := wire.CheckSocket(sock); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := dialEngine(ctx, sock)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	if err := wire.WriteRequest(conn, &wire.Request{Protocol: wire.Protocol, Control: control}); err != nil {
		return nil, err
	}
	if err := wire.WriteBody(conn, nil); err != nil {
		return nil, err
	}
	ack, err := wire.ReadAck(conn)
	if err != nil {
		return nil, err
	}
	if ack.Refused != "" {
		return nil, fmt.Errorf("the engine refused: %s", ack.Refused)
	}
	rep, err := wire.ReadReply(conn)
	if err != nil {
		return nil, err
	}
	if rep.Status == nil {
		return nil, fmt.Errorf("the engine sent no status")
	}
	return rep.Status, nil
}
