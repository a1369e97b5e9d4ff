//go:build unix

package e2e

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/team/internal/pgtest"
	"github.com/agenthooks/agenthooks/team/server"
	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// backend names a store and gives a new, empty database of its kind.
type backend struct {
	name string
	url  func(tb testing.TB) string
}

var backends = []backend{
	{"sqlite", func(tb testing.TB) string { return "sqlite:" + filepath.Join(tb.TempDir(), "team.db") }},
	{"postgres", pgtest.URL},
}

// adminName names the admin token the tests act with: the history shows it.
const adminName = "alice"

// teamServer is a real team server on a loopback port.
type teamServer struct {
	url   string // http://127.0.0.1:PORT
	dbURL string
	store store.Store
	admin string // the admin token's secret
	// client is the tests' HTTP client, whose idle connections are
	// closed before the server stops.
	client *http.Client
}

// startServer opens the database at url, makes the admin token on it
// directly (as `agenthooks serve token create --admin` does) and serves
// it, with root as the dashboard, until the test ends.
func startServer(t testing.TB, url string, root http.Handler) *teamServer {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, url, store.Options{})
	if err != nil {
		t.Fatalf("open the store: %v", err)
	}
	_, admin, err := st.CreateToken(ctx, adminName, store.RoleAdmin, 0)
	if err != nil {
		st.Close()
		t.Fatalf("create the admin token: %v", err)
	}
	srv, err := server.New(server.Config{Store: st, Root: root})
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, ln) }()
	transport := &http.Transport{}
	ts := &teamServer{url: "http://" + ln.Addr().String(), dbURL: url, store: st, admin: admin, client: &http.Client{Transport: transport}}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(time.Minute):
			t.Error("Serve did not return within a minute of its context ending")
		}
		if err := st.Close(); err != nil {
			t.Errorf("close the store: %v", err)
		}
	})
	return ts
}

// adminClient calls AdminService with the admin token.
func (s *teamServer) adminClient() teamv1connect.AdminServiceClient {
	return teamv1connect.NewAdminServiceClient(s.client, s.url, connect.WithInterceptors(bearer(s.admin)))
}

func bearer(secret string) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			req.Header().Set("Authorization", "Bearer "+secret)
			return next(ctx, req)
		}
	}
}

// member is one member machine: a home folder synced from the server
// with a member token, for one operating system.
type member struct {
	home   string
	client *teamsync.Client
}

func newMember(t *testing.T, s *teamServer, token, osName string) *member {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	c, err := teamsync.New(teamsync.Options{Server: s.url, Token: token, Home: home, OS: osName, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return &member{home: home, client: c}
}

// sync runs a sync that accepts the team's hooks, as `agenthooks sync
// --accept` does.
func (m *member) sync(t *testing.T) *teamsync.Result {
	t.Helper()
	res, err := m.client.Sync(context.Background(), teamsync.AcceptAll)
	if err != nil {
		t.Fatalf("sync: %v", err)
	}
	return res
}

// hooksDir is where the team's hooks are installed.
func (m *member) hooksDir(teamID int64) string {
	return config.TeamHooksDir(m.home, fmt.Sprint(teamID))
}

// files lists the hooks folder's file names; none when it is missing.
func files(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// loadEngine loads a fresh engine for loc, failing on any problem in the
// sources: a dropped hook would otherwise go unnoticed.
func loadEngine(t *testing.T, loc config.Locations, trust config.Trust) *engine.Engine {
	t.Helper()
	eng, err := engine.Load(engine.Options{Locations: loc, Trust: trust, DefaultTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if p := eng.Problems(); len(p) > 0 {
		t.Fatalf("problems loading the hooks: %v", p)
	}
	return eng
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
