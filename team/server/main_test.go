package server

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/internal/pgtest"
	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// backend names a store and opens a new, empty one.
type backend struct {
	name string
	url  func(tb testing.TB) string
}

var backends = []backend{
	{"sqlite", func(tb testing.TB) string { return "sqlite:" + filepath.Join(tb.TempDir(), "team.db") }},
	{"postgres", pgtest.URL},
}

// eachBackend runs test against a server on each store.
func eachBackend(t *testing.T, test func(t *testing.T, e *env)) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { test(t, start(t, b, nil)) })
	}
}

// env is a running server on a real listener, with one team, an admin
// token and a member token of the team.
type env struct {
	base   string // http://127.0.0.1:PORT
	store  store.Store
	team   store.Team
	admin  string // secrets
	member string
	// stop shuts the server down and returns Serve's error.
	stop func() error
}

func openStore(tb testing.TB, b backend, o store.Options) store.Store {
	tb.Helper()
	st, err := store.Open(context.Background(), b.url(tb), o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// start serves a new store of backend b; edit, when not nil, adjusts the
// configuration (and may replace the store).
func start(tb testing.TB, b backend, edit func(*Config)) *env {
	tb.Helper()
	ctx := context.Background()
	cfg := Config{Store: openStore(tb, b, store.Options{})}
	if edit != nil {
		edit(&cfg)
	}
	e := &env{store: cfg.Store}
	var err error
	if e.team, err = cfg.Store.CreateTeam(ctx, "platform"); err != nil {
		tb.Fatal(err)
	}
	if _, e.admin, err = cfg.Store.CreateToken(ctx, "root", store.RoleAdmin, 0); err != nil {
		tb.Fatal(err)
	}
	if _, e.member, err = cfg.Store.CreateToken(ctx, "laptops", store.RoleMember, e.team.ID); err != nil {
		tb.Fatal(err)
	}
	s, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	e.base, e.stop = serve(tb, s)
	return e
}

// serve runs s on a new listener of 127.0.0.1 until the test ends.
func serve(tb testing.TB, s *Server) (string, func() error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	var once sync.Once
	stop := func() (err error) {
		err = errors.New("the server was already stopped")
		once.Do(func() {
			closeIdleConnections()
			cancel()
			select {
			case err = <-done:
			case <-time.After(time.Minute):
				err = errors.New("Serve did not return within a minute of its context ending")
			}
		})
		return err
	}
	tb.Cleanup(func() {
		// A test that stopped the server has checked the result.
		if err := stop(); err != nil && err.Error() != "the server was already stopped" {
			tb.Errorf("Serve: %v", err)
		}
	})
	scheme := "http://"
	if s.tls != nil {
		scheme = "https://"
	}
	return scheme + ln.Addr().String(), stop
}

// protocol is one way of calling the server.
type protocol struct {
	name string
	// client speaks HTTP/2 without TLS for gRPC (which needs HTTP/2),
	// HTTP/1.1 for the others.
	client func() *http.Client
	opts   []connect.ClientOption
}

var protocols = []protocol{
	{"connect", http1Client, nil},
	{"connect-json", http1Client, []connect.ClientOption{connect.WithProtoJSON()}},
	{"grpc", h2cClient, []connect.ClientOption{connect.WithGRPC()}},
	{"grpc-web", http1Client, []connect.ClientOption{connect.WithGRPCWeb()}},
}

func http1Client() *http.Client {
	var p http.Protocols
	p.SetHTTP1(true)
	return track(&http.Transport{Protocols: &p})
}

func h2cClient() *http.Client {
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	return track(&http.Transport{Protocols: &p})
}

func tlsClient(cfg *tls.Config) *http.Client {
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetHTTP2(true)
	return track(&http.Transport{Protocols: &p, TLSClientConfig: cfg})
}

// transports are the tests' clients' transports, whose idle connections
// are closed before a server stops: the server would otherwise give an
// idle HTTP/2 client a second to go away after its GOAWAY.
var transports struct {
	sync.Mutex
	all []*http.Transport
}

func track(t *http.Transport) *http.Client {
	transports.Lock()
	defer transports.Unlock()
	transports.all = append(transports.all, t)
	return &http.Client{Transport: t}
}

func closeIdleConnections() {
	transports.Lock()
	defer transports.Unlock()
	for _, t := range transports.all {
		t.CloseIdleConnections()
	}
	transports.all = nil
}

func (e *env) adminClient(secret string, p protocol) teamv1connect.AdminServiceClient {
	opts := append([]connect.ClientOption{connect.WithInterceptors(bearerAuth(secret))}, p.opts...)
	return teamv1connect.NewAdminServiceClient(p.client(), e.base, opts...)
}

func (e *env) hooksClient(secret string, p protocol) teamv1connect.TeamHooksServiceClient {
	opts := append([]connect.ClientOption{connect.WithInterceptors(bearerAuth(secret))}, p.opts...)
	return teamv1connect.NewTeamHooksServiceClient(p.client(), e.base, opts...)
}

// bearerAuth sends "Authorization: Bearer secret" (nothing when secret
// is "").
func bearerAuth(secret string) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			if secret != "" {
				req.Header().Set("Authorization", "Bearer "+secret)
			}
			return next(ctx, req)
		}
	}
}

func sampleHook(name string) *teamv1.TeamHook {
	return &teamv1.TeamHook{
		HookStep:         "beforeShellExecution",
		ScriptName:       name,
		OperatingSystems: []string{"Linux"},
		IsActive:         true,
		ScriptContent:    "#!/bin/sh\necho '{\"permission\":\"deny\"}'\n",
		Matcher:          "^git push",
		TimeoutSeconds:   5,
		FailClosed:       true,
	}
}

// wantCode fails the test unless err is a Connect error with code.
func wantCode(t *testing.T, what string, err error, code connect.Code) *connect.Error {
	t.Helper()
	var ce *connect.Error
	if !errors.As(err, &ce) || ce.Code() != code {
		t.Errorf("%s: %v, want code %v", what, err, code)
		return nil
	}
	return ce
}
