package server

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/internal/pgtest"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// cable stands between the server and PostgreSQL on 127.0.0.1, so a test
// can cut the database off (every connection dropped, new ones refused)
// and plug it back in on the same address.
type cable struct {
	target string
	addr   string
	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]bool
	wg     sync.WaitGroup
}

func newCable(t *testing.T, target string) *cable {
	c := &cable{target: target, addr: "127.0.0.1:0", conns: map[net.Conn]bool{}}
	c.plug(t)
	c.addr = c.ln.Addr().String()
	t.Cleanup(func() { c.cut(); c.wg.Wait() })
	return c
}

func (c *cable) plug(t *testing.T) {
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	c.ln = ln
	c.mu.Unlock()
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", c.target)
			if err != nil {
				in.Close()
				continue
			}
			c.mu.Lock()
			c.conns[in], c.conns[out] = true, true
			c.mu.Unlock()
			c.wg.Add(2)
			go c.pipe(in, out)
			go c.pipe(out, in)
		}
	}()
}

func (c *cable) pipe(dst, src net.Conn) {
	defer c.wg.Done()
	io.Copy(dst, src)
	dst.Close()
	src.Close()
}

// cut drops every connection and refuses new ones.
func (c *cable) cut() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ln != nil {
		c.ln.Close()
		c.ln = nil
	}
	for conn := range c.conns {
		conn.Close()
		delete(c.conns, conn)
	}
}

// TestDatabaseDownIsUnavailable: with PostgreSQL out of reach, members
// and administrators are told "unavailable" (503), which clients retry,
// not "internal" (500); sync retries within its timeout and succeeds when
// the database comes back.
func TestDatabaseDownIsUnavailable(t *testing.T) {
	u, err := url.Parse(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	c := newCable(t, u.Host)
	u.Host = c.addr
	proxied := u.String()
	e := start(t, backend{"postgres", func(testing.TB) string { return proxied }}, nil)
	if _, _, err := e.store.CreateHook(context.Background(), "root", e.team.ID, hookFromProto(sampleHook("guard.sh"))); err != nil {
		t.Fatal(err)
	}

	c.cut()
	ctx := context.Background()
	for _, p := range protocols {
		_, err := e.hooksClient(e.member, p).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
		ce := wantCode(t, p.name+" GetTeamHooks", err, connect.CodeUnavailable)
		if ce != nil && strings.Contains(ce.Message(), c.target) {
			t.Errorf("the answer describes the database: %q", ce.Message())
		}
		_, err = e.adminClient(e.admin, p).ListTeams(ctx, connect.NewRequest(&teamv1.ListTeamsRequest{}))
		wantCode(t, p.name+" ListTeams", err, connect.CodeUnavailable)
	}
	req, _ := http.NewRequest("POST", e.base+"/agenthooks.team.v1.TeamHooksService/GetTeamHooks", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.member)
	resp, err := http1Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("HTTP status %d, want 503", resp.StatusCode)
	}

	member := func(timeout time.Duration) *teamsync.Client {
		m, err := teamsync.New(teamsync.Options{Server: e.base, Token: e.member, Home: filepath.Join(t.TempDir(), "home"), OS: "Linux", Timeout: timeout})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	// Down for good: sync gives up within its timeout and says why.
	began := time.Now()
	_, err = member(2*time.Second).Sync(ctx, teamsync.AcceptAll)
	if err == nil || !strings.Contains(err.Error(), "cannot be reached") {
		t.Errorf("sync with the database down: %v, want the server's unavailability", err)
	}
	if took := time.Since(began); took > 5*time.Second {
		t.Errorf("sync took %v with a 2 s timeout", took)
	}
	// Back after a second: sync's retries get through.
	back := make(chan struct{})
	go func() {
		defer close(back)
		time.Sleep(time.Second)
		c.plug(t)
	}()
	res, err := member(20*time.Second).Sync(ctx, teamsync.AcceptAll)
	<-back
	if err != nil {
		t.Fatalf("sync while the database comes back: %v", err)
	}
	if res.Hooks != 1 || !res.Changed {
		t.Errorf("sync after the outage: %+v, want the team's one hook installed", res)
	}
}
