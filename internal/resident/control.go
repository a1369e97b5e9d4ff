package resident

import (
	"net"
	"os"
	"time"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// Control requests.
const (
	ControlStatus = "status"
	ControlStop   = "stop"
	// ControlFlush writes the execution log of every step answered so
	// far before the engine answers with its status.
	ControlFlush = "flush"
)

// control answers a request to the engine itself.
func (s *Server) control(c net.Conn, req *wire.Request) {
	switch req.Control {
	case ControlStatus, ControlStop, ControlFlush:
	default:
		_ = wire.WriteAck(c, wire.Ack{Refused: "unknown control " + req.Control})
		return
	}
	if err := wire.WriteAck(c, wire.Ack{}); err != nil {
		return
	}
	if req.Control == ControlFlush && s.Flush != nil {
		s.Flush()
	}
	st := &wire.Status{
		PID:      os.Getpid(),
		Version:  s.Version,
		Build:    s.Build,
		Socket:   s.addr,
		Started:  s.started.UTC().Format(time.RFC3339),
		Steps:    s.steps.Load(),
		Active:   s.active.Load(),
		IdleExit: s.Idle.String(),
		Waiting:  s.waiting(),
	}
	if req.Control == ControlStop {
		s.logf("engine stopping: asked to")
		s.Stop()
	}
	if wire.WriteReply(c, wire.Reply{Status: st}) == nil && wire.WriteBody(c, nil) == nil {
		_ = wire.WriteBody(c, nil)
	}
}
