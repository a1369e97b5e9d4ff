package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
)

// Serve answers on ln until ctx ends, then shuts down gracefully: it
// stops accepting, lets the requests in flight finish (up to
// Config.ShutdownTimeout, after which they are cut) and returns. ln is
// closed on return.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	var protocols http.Protocols
	protocols.SetHTTP1(true)
	if s.tls != nil {
		protocols.SetHTTP2(true)
	} else {
		// HTTP/2 with prior knowledge (h2c), which gRPC clients use on
		// plain-text connections.
		protocols.SetUnencryptedHTTP2(true)
	}
	srv := &http.Server{
		Handler:           s.handler,
		Protocols:         &protocols,
		TLSConfig:         s.tls,
		ReadHeaderTimeout: headerTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	fctx, stopFleet := context.WithCancel(context.WithoutCancel(ctx))
	fleetDone := make(chan struct{})
	go func() {
		defer close(fleetDone)
		s.fleet.run(fctx)
	}()
	// The fleet's last reports are written after the last request.
	defer func() { stopFleet(); <-fleetDone }()
	pctx, stopPruner := context.WithCancel(ctx)
	prunerDone := make(chan struct{})
	go func() {
		defer close(prunerDone)
		s.pruner.run(pctx)
	}()
	defer func() { stopPruner(); <-prunerDone }()
	errc := make(chan error, 1)
	go func() {
		if s.tls != nil {
			errc <- srv.ServeTLS(ln, "", "")
		} else {
			errc <- srv.Serve(ln)
		}
	}()
	select {
	case err := <-errc:
		return fmt.Errorf("serve on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-errc // http.ErrServerClosed, at once
	if err != nil {
		_ = srv.Close()
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("shut down: requests still running after %v were cut", s.cfg.ShutdownTimeout)
		}
		return fmt.Errorf("shut down: %w", err)
	}
	return nil
}
