// Package server is the team hooks server: the Connect handlers of
// TeamHooksService (members' machines fetch their team's hooks) and
// AdminService (administrators manage teams, hooks and tokens), behind
// bearer-token authentication, with /healthz and Prometheus /metrics.
//
// One handler answers the Connect, gRPC and gRPC-Web protocols; Serve
// speaks HTTP/1.1 and HTTP/2, the latter without TLS too (h2c), so gRPC
// clients work against a plain-text listener behind a TLS-terminating
// proxy. The server keeps no state of its own: everything is in the
// store, so replicas sharing one PostgreSQL database are interchangeable.
package server

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// Config configures a Server.
type Config struct {
	// Store holds everything; required.
	Store store.Store
	// MaxScriptBytes is the largest script_content the server accepts
	// (0: store.DefaultMaxScriptBytes). Give the store the same limit:
	// the server checks it first, to answer with the server's own
	// number, and it sizes the default MaxRequestBytes.
	MaxScriptBytes int
	// MaxRequestBytes bounds a request message; 0 means twice
	// MaxScriptBytes (room for a script's JSON escaping) plus 64 KiB.
	MaxRequestBytes int64
	// Root, when set, serves every path the API does not: the dashboard.
	Root http.Handler
	// Logger receives one line per administrative call and per failure;
	// nil discards.
	Logger *slog.Logger
	// TLSCertFile and TLSKeyFile, both set, make Serve speak HTTPS.
	TLSCertFile, TLSKeyFile string
	// UploadRate bounds each member token's uploads of decisions on this
	// replica, in uploads a second (with a burst of three seconds' worth);
	// 0 means DefaultUploadRate. The daily volume is the store's
	// (store.Options.DailyDecisionsPerToken).
	UploadRate float64
	// ReadTimeout bounds the reading of a whole request, headers and
	// body, so that a client trickling its body (with or without a
	// token: the body is read before the token is checked) is cut off;
	// 0 means DefaultReadTimeout.
	ReadTimeout time.Duration
	// ShutdownTimeout is how long Serve waits for requests in flight
	// once its context ends; 0 means 30 seconds.
	ShutdownTimeout time.Duration
}

// Bounds of every connection. A request's headers must arrive within
// headerTimeout and the whole request within Config.ReadTimeout; a
// connection with no request in flight is closed after idleTimeout.
const (
	DefaultReadTimeout = 20 * time.Second
	// DefaultUploadRate is a token's uploads a second: a sync sends at
	// most a few, so this is many machines sharing one token at once.
	DefaultUploadRate = 20.0
	headerTimeout     = 10 * time.Second
	idleTimeout       = time.Minute
)

// Server is a configured team hooks server.
type Server struct {
	cfg     Config
	log     *slog.Logger
	tls     *tls.Config // nil: plain text
	metrics *metrics
	fleet   *fleet
	uploads *uploadLimiter
	pruner  *pruner
	handler http.Handler
}

// New checks the configuration (loading the TLS key pair, so that a bad
// one fails at start rather than at the first connection) and builds the
// server's handler.
func New(c Config) (*Server, error) {
	if c.Store == nil {
		return nil, errors.New("team server: no store")
	}
	if c.MaxScriptBytes <= 0 {
		c.MaxScriptBytes = store.DefaultMaxScriptBytes
	}
	if c.MaxRequestBytes <= 0 {
		c.MaxRequestBytes = 2*int64(c.MaxScriptBytes) + 64<<10
	}
	if c.UploadRate <= 0 {
		c.UploadRate = DefaultUploadRate
	}
	if c.ReadTimeout <= 0 {
		c.ReadTimeout = DefaultReadTimeout
	}
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = 30 * time.Second
	}
	s := &Server{cfg: c, log: c.Logger, metrics: newMetrics(), uploads: newUploadLimiter(c.UploadRate)}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s.fleet = newFleet(c.Store, s.log)
	s.pruner = newPruner(c.Store, s.log)
	switch {
	case c.TLSCertFile != "" && c.TLSKeyFile != "":
		pair, err := tls.LoadX509KeyPair(c.TLSCertFile, c.TLSKeyFile)
		if err != nil {
			return nil, fmt.Errorf("TLS certificate %s and key %s: %w", c.TLSCertFile, c.TLSKeyFile, err)
		}
		s.tls = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	case c.TLSCertFile != "" || c.TLSKeyFile != "":
		return nil, errors.New("TLS needs both a certificate and a key (--tls-cert and --tls-key)")
	}
	s.handler = s.routes()
	return s, nil
}

// Handler is the server's whole HTTP handler: the two services, /healthz,
// /metrics, and Config.Root for everything else.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) routes() http.Handler {
	opts := func(need store.Role) connect.HandlerOption {
		return connect.WithHandlerOptions(
			connect.WithReadMaxBytes(int(s.cfg.MaxRequestBytes)),
			// Outermost first: the metrics see authentication failures.
			connect.WithInterceptors(s.observe(), s.authenticate(need), refuseUnknown()),
			connect.WithCodec(strictJSONCodecs[0]), connect.WithCodec(strictJSONCodecs[1]),
			// A full answer of large scripts is worth compressing for
			// clients that accept it; small ones are not.
			connect.WithCompressMinBytes(4<<10),
		)
	}
	mux := http.NewServeMux()
	mux.Handle(s.bounded(teamv1connect.NewTeamHooksServiceHandler(&teamHooks{s: s}, opts(store.RoleMember))))
	mux.Handle(s.bounded(teamv1connect.NewAdminServiceHandler(&admin{s: s}, opts(store.RoleAdmin))))
	mux.HandleFunc("GET /healthz", s.health)
	mux.Handle("GET /metrics", s.metrics)
	if s.cfg.Root != nil {
		mux.Handle("/", s.cfg.Root)
	}
	return mux
}

// bounded reads a request's body with a size limit: what Connect
// accepts (MaxRequestBytes, compressed or not) plus room for its
// envelopes. A longer body is cut at the limit rather than read, and a
// body that fails to arrive (the read timeout) closes the connection
// after the answer, rather than leaving it to wait for another request.
func (s *Server) bounded(path string, h http.Handler) (string, http.Handler) {
	limit := s.cfg.MaxRequestBytes + 64<<10
	return path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = &closeOnError{ReadCloser: http.MaxBytesReader(w, r.Body, limit), w: w}
		h.ServeHTTP(w, r)
	})
}

// closeOnError asks for the connection to be closed after the answer
// when its body cannot be read to its end.
type closeOnError struct {
	io.ReadCloser
	w http.ResponseWriter
}

func (c *closeOnError) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		c.w.Header().Set("Connection", "close")
	}
	return n, err
}
