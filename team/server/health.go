package server

import (
	"context"
	"net/http"
	"time"
)

// health answers GET /healthz: 200 when the database answers within two
// seconds, 503 otherwise, for load balancers and orchestrators to take a
// replica out of rotation. The reason goes to the log, not to the
// unauthenticated caller.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := s.cfg.Store.Ping(ctx); err != nil {
		s.log.Warn("health check failed", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("database unavailable\n"))
		return
	}
	_, _ = w.Write([]byte("ok\n"))
}
