package teamsync_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
	"github.com/agenthooks/agenthooks/team/teamv1"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// switchServer serves the fake team until a test switches it to another
// handler, at the same URL (the sync state is per server).
type switchServer struct {
	URL  string
	Fake *faketeam.Server
	h    atomic.Pointer[http.Handler]
}

func newSwitchServer(t *testing.T) *switchServer {
	s := &switchServer{Fake: newServer(t)}
	mux := http.NewServeMux()
	mux.Handle(teamv1connect.NewTeamHooksServiceHandler(s.Fake))
	s.use(mux)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*s.h.Load()).ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	s.URL = hs.URL
	return s
}

func (s *switchServer) use(h http.Handler) { s.h.Store(&h) }

// fixed answers GetTeamHooks with one response, whatever was asked.
type fixed struct {
	teamv1connect.UnimplementedTeamHooksServiceHandler
	resp *teamv1.GetTeamHooksResponse
}

func (f fixed) GetTeamHooks(context.Context, *connect.Request[teamv1.GetTeamHooksRequest]) (*connect.Response[teamv1.GetTeamHooksResponse], error) {
	return connect.NewResponse(proto.Clone(f.resp).(*teamv1.GetTeamHooksResponse)), nil
}

func fixedHandler(resp *teamv1.GetTeamHooksResponse) http.Handler {
	mux := http.NewServeMux()
	mux.Handle(teamv1connect.NewTeamHooksServiceHandler(fixed{resp: resp}))
	return mux
}

// raw answers every request with a status, content type and body.
func raw(status int, contentType string, body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(status)
		_, _ = w.Write(body)
	})
}

func hook(id int64, step, name string, mod ...func(*teamv1.TeamHook)) *teamv1.TeamHook {
	h := faketeam.Hook(id, step, name, "#!/bin/sh\n")
	for _, m := range mod {
		m(h)
	}
	return h
}

// invalidUTF8Answer is a GetTeamHooksResponse whose one hook's script
// name is not UTF-8, which proto3 strings forbid.
func invalidUTF8Answer() []byte {
	var h []byte
	h = protowire.AppendTag(h, 1, protowire.VarintType)
	h = protowire.AppendVarint(h, 1)
	h = protowire.AppendTag(h, 2, protowire.BytesType)
	h = protowire.AppendString(h, "stop")
	h = protowire.AppendTag(h, 3, protowire.BytesType)
	h = protowire.AppendBytes(h, []byte{'a', 0xff, 'b'})
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, h)
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, teamID)
	return b
}

// bigAnswer is a GetTeamHooksResponse with one stop hook whose script
// has size bytes, encoded directly (no copy, no validation: a big script
// costs the test only what it costs the client).
func bigAnswer(id int64, name string, size int) []byte {
	var h []byte
	h = protowire.AppendTag(h, 1, protowire.VarintType)
	h = protowire.AppendVarint(h, uint64(id))
	h = protowire.AppendTag(h, 2, protowire.BytesType)
	h = protowire.AppendString(h, "stop")
	h = protowire.AppendTag(h, 3, protowire.BytesType)
	h = protowire.AppendString(h, name)
	h = protowire.AppendTag(h, 5, protowire.VarintType)
	h = protowire.AppendVarint(h, 1)
	h = protowire.AppendTag(h, 6, protowire.BytesType)
	h = protowire.AppendVarint(h, uint64(size))
	b := make([]byte, 0, len(h)+size+32)
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(len(h)+size))
	b = append(b, h...)
	b = append(b, strings.Repeat("#", size)...)
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, teamID)
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	return protowire.AppendVarint(b, 99)
}

func TestHostileAnswersKeepTheLastGoodSet(t *testing.T) {
	good, _ := proto.Marshal(&teamv1.GetTeamHooksResponse{TeamId: teamID, Revision: 9, Hooks: goodSet()})
	cases := []struct {
		name    string
		hooks   []*teamv1.TeamHook           // served by the fake, unfiltered
		resp    *teamv1.GetTeamHooksResponse // served by a fixed handler
		handler http.Handler
		opts    func(*teamsync.Options)
		want    []string // in the error
	}{
		{name: "parent traversal", hooks: []*teamv1.TeamHook{hook(11, "stop", "../x")}, want: []string{`hook 11 ("../x", stop)`, "plain file name"}},
		{name: "absolute path", hooks: []*teamv1.TeamHook{hook(12, "stop", "/etc/passwd")}, want: []string{`hook 12 ("/etc/passwd"`, "without / or"}},
		{name: "subfolder", hooks: []*teamv1.TeamHook{hook(13, "stop", "a/b")}, want: []string{`hook 13 ("a/b"`}},
		{name: "backslash", hooks: []*teamv1.TeamHook{hook(14, "stop", `a\b`)}, want: []string{`hook 14`, `without / or \`}},
		{name: "dot dot", hooks: []*teamv1.TeamHook{hook(15, "stop", "..")}, want: []string{`hook 15 ("..", stop)`, "names a folder"}},
		{name: "hidden", hooks: []*teamv1.TeamHook{hook(16, "stop", ".hidden")}, want: []string{`hook 16`, "must not start with a dot"}},
		{name: "empty name", hooks: []*teamv1.TeamHook{hook(17, "stop", "")}, want: []string{`hook 17 ("", stop)`, "empty"}},
		{name: "NUL", hooks: []*teamv1.TeamHook{hook(18, "stop", "a\x00b")}, want: []string{`hook 18 ("a\x00b"`, "control character U+0000"}},
		{name: "escape sequence", hooks: []*teamv1.TeamHook{hook(19, "stop", "\x1b[2Jx.sh")}, want: []string{`hook 19 ("\x1b[2Jx.sh"`, "control character U+001B"}},
		{name: "too long", hooks: []*teamv1.TeamHook{hook(20, "stop", strings.Repeat("a", 256))}, want: []string{"hook 20", "256 bytes long"}},
		{name: "manifest name", hooks: []*teamv1.TeamHook{hook(21, "stop", "HOOKS.JSON")}, want: []string{"hook 21", "taken by the manifest"}},
		{name: "duplicate", hooks: []*teamv1.TeamHook{hook(22, "stop", "a.sh"), hook(23, "sessionStart", "a.sh")}, want: []string{`hook 23 ("a.sh", sessionStart): script name already used by hook 22`}},
		{name: "duplicate but for case", hooks: []*teamv1.TeamHook{hook(24, "stop", "A.sh"), hook(25, "stop", "a.sh")}, want: []string{"hook 25", "already used by hook 24"}},
		{name: "unknown step", hooks: []*teamv1.TeamHook{hook(26, "beforeShellExec", "x.sh")}, want: []string{"hook 26", `unknown step "beforeShellExec" (did you mean "beforeShellExecution"?)`}},
		{name: "50 MiB script", handler: raw(200, "application/proto", bigAnswer(27, "big.sh", 50<<20)),
			opts: func(o *teamsync.Options) { o.Timeout = 2 * time.Minute }, want: []string{"hook 27", "52428800 bytes, over the limit of 1048576"}},
		{name: "negative timeout", hooks: []*teamv1.TeamHook{hook(28, "stop", "t.sh", func(h *teamv1.TeamHook) { h.TimeoutSeconds = -1 })}, want: []string{"hook 28", "timeout_seconds"}},
		{name: "NaN timeout", hooks: []*teamv1.TeamHook{hook(29, "stop", "t.sh", func(h *teamv1.TeamHook) { h.TimeoutSeconds = math.NaN() })}, want: []string{"hook 29", "timeout_seconds"}},
		{name: "matcher that does not compile", hooks: []*teamv1.TeamHook{hook(30, "beforeShellExecution", "m.sh", func(h *teamv1.TeamHook) { h.Matcher = "(" })}, want: []string{`hook 30 ("m.sh", beforeShellExecution)`}},
		{name: "reserved name on Windows", hooks: []*teamv1.TeamHook{hook(31, "stop", "CON.ps1"), hook(32, "stop", "nul"), hook(33, "stop", "a:b.ps1")},
			opts: func(o *teamsync.Options) { o.OS = team.Windows }, want: []string{"hook 31", "reserved device name", "hook 32", "hook 33", "contains ':'"}},
		{name: "hook of another team", resp: &teamv1.GetTeamHooksResponse{TeamId: teamID, Revision: 9, Hooks: []*teamv1.TeamHook{hook(34, "stop", "x.sh", func(h *teamv1.TeamHook) { h.TeamId = 99 })}}, want: []string{"hook 34", "belongs to team 99"}},
		{name: "no team id", resp: &teamv1.GetTeamHooksResponse{Revision: 9, Hooks: goodSet()}, want: []string{"names no team"}},
		{name: "unchanged to a full request", resp: &teamv1.GetTeamHooksResponse{TeamId: teamID, Revision: 9, Unchanged: true},
			opts: func(*teamsync.Options) {}, want: []string{"unchanged"}},
		{name: "garbage body", handler: raw(200, "application/proto", []byte("\xff\xff\xff\xffnot a protobuf")), want: []string{"get team hooks from"}},
		{name: "truncated protobuf", handler: raw(200, "application/proto", good[:len(good)-7]), want: []string{"get team hooks from"}},
		{name: "invalid UTF-8 string", handler: raw(200, "application/proto", invalidUTF8Answer()), want: []string{"get team hooks from"}},
		{name: "wrong content type", handler: raw(200, "text/html", []byte("<html>login</html>")), want: []string{"get team hooks from"}},
		{name: "HTTP 500", handler: raw(500, "text/plain", []byte("boom")), want: []string{"get team hooks from"}},
		{name: "HTTP 401", handler: raw(401, "text/plain", []byte("who are you")), want: []string{"refused the token"}},
		{name: "redirect", handler: http.RedirectHandler("http://127.0.0.2:9/elsewhere", http.StatusTemporaryRedirect), want: []string{"redirects to http://127.0.0.2:9/elsewhere"}},
		{name: "escape sequences in an error", handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"code":"permission_denied","message":"\u001b[2Jgo away"}`))
		}), want: []string{`\u001b[2Jgo away`, "use a member token"}},
		{name: "response over the limit", hooks: []*teamv1.TeamHook{hook(35, "stop", "x.sh", func(h *teamv1.TeamHook) { h.ScriptContent = strings.Repeat("x", 2<<20) })},
			opts: func(o *teamsync.Options) { o.MaxResponseBytes = 1 << 20; o.MaxScriptBytes = 4 << 20 }, want: []string{"get team hooks from"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newSwitchServer(t)
			dir := t.TempDir()
			home := filepath.Join(dir, "home")
			mod := func(o *teamsync.Options) {}
			if tc.opts != nil {
				mod = tc.opts
			}
			mustSync(t, newClient(t, srv.URL, home, mod))
			before := snapshot(t, dir)

			switch {
			case tc.hooks != nil:
				srv.Fake.SetRaw(true)
				srv.Fake.SetHooks(tc.hooks...)
			case tc.resp != nil:
				srv.use(fixedHandler(tc.resp))
			default:
				srv.use(tc.handler)
			}
			c := newClient(t, srv.URL, home, mod)
			if tc.name == "unchanged to a full request" {
				// Make the full request: damage the folder so no revision is known.
				srv.use(fixedHandler(tc.resp))
				p, err := c.FetchAll(context.Background())
				if err == nil || !strings.Contains(err.Error(), "unchanged") {
					t.Fatalf("plan %+v, err %v", p, err)
				}
				sameSnapshot(t, "the test folder", before, snapshot(t, dir))
				return
			}
			_, err := c.Sync(context.Background(), teamsync.AcceptAll)
			if err == nil {
				t.Fatal("the hostile answer was accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			if tc.name == "redirect" && strings.Contains(err.Error(), "cannot be reached") {
				t.Errorf("a redirect is said to be an unreachable server: %v", err)
			}
			sameSnapshot(t, "the test folder", before, snapshot(t, dir))
			// The state still names the last good set.
			if st, err := c.LastSynced(); err != nil || st == nil || len(st.Files) != 3 {
				t.Fatalf("state %+v %v", st, err)
			}
		})
	}
}

func TestHangingServerTimesOut(t *testing.T) {
	srv := newSwitchServer(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	mustSync(t, newClient(t, srv.URL, home))
	before := snapshot(t, dir)
	release := make(chan struct{})
	defer close(release)
	srv.use(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	c := newClient(t, srv.URL, home, func(o *teamsync.Options) { o.Timeout = 200 * time.Millisecond })
	start := time.Now()
	_, err := c.Sync(context.Background(), teamsync.AcceptAll)
	if err == nil || !strings.Contains(err.Error(), "no answer within 200ms") {
		t.Fatalf("got %v", err)
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Fatalf("the client waited %s", waited)
	}
	sameSnapshot(t, "the test folder", before, snapshot(t, dir))

	// The caller's context is honoured too.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c = newClient(t, srv.URL, home)
	if _, err := c.Sync(ctx, teamsync.AcceptAll); !errors.Is(err, context.Canceled) && connect.CodeOf(err) != connect.CodeCanceled {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestWrongTokenIsRefused(t *testing.T) {
	srv := newServer(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	mustSync(t, newClient(t, srv.URL, home))
	before := snapshot(t, dir)
	c := newClient(t, srv.URL, home, func(o *teamsync.Options) { o.Token = "stolen" })
	_, err := c.Sync(context.Background(), teamsync.AcceptAll)
	if connect.CodeOf(errors.Unwrap(err)) != connect.CodeUnauthenticated && !strings.Contains(err.Error(), "refused the token") {
		t.Fatalf("got %v", err)
	}
	sameSnapshot(t, "the test folder", before, snapshot(t, dir))
}

// A server that streams without end is cut off at the answer's limit,
// not read to the end: the client reads a bounded amount and keeps the
// last good set.
func TestFloodingServerIsCutOff(t *testing.T) {
	srv := newSwitchServer(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	mustSync(t, newClient(t, srv.URL, home))
	before := snapshot(t, dir)
	var sent atomic.Int64
	srv.use(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/proto")
		chunk := make([]byte, 64<<10)
		for r.Context().Err() == nil && sent.Load() < 1<<30 {
			n, err := w.Write(chunk)
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	const limit = 1 << 20
	c := newClient(t, srv.URL, home, func(o *teamsync.Options) { o.MaxResponseBytes = limit })
	if _, err := c.Sync(context.Background(), teamsync.AcceptAll); err == nil {
		t.Fatal("an endless answer was taken")
	}
	// What the server managed to push into the socket's buffers before
	// the client hung up is on top of what the client read.
	if got := sent.Load(); got > 64*limit {
		t.Errorf("the client read on: the server sent %d bytes for a limit of %d", got, limit)
	}
	sameSnapshot(t, "the test folder", before, snapshot(t, dir))
}

// A team's revision only grows: an answer older than the installed set
// (replayed, or from a stale cache) is refused, and the set stays.
func TestOlderRevisionIsRefused(t *testing.T) {
	srv := newSwitchServer(t)
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	srv.Fake.SetRevision(5)
	mustSync(t, newClient(t, srv.URL, home))
	before := snapshot(t, dir)
	srv.use(fixedHandler(&teamv1.GetTeamHooksResponse{TeamId: teamID, Revision: 2}))
	_, err := newClient(t, srv.URL, home).Sync(context.Background(), teamsync.AcceptAll)
	if err == nil || !strings.Contains(err.Error(), "older than revision 5 installed") {
		t.Fatalf("an older revision: %v", err)
	}
	sameSnapshot(t, "the test folder", before, snapshot(t, dir))
}
