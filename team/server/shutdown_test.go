package server

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// stalling holds every Hooks call until released (or its context ends),
// so that a test can have requests in flight when the server stops.
type stalling struct {
	store.Store
	entered chan struct{}
	release chan struct{}
}

func (s *stalling) Hooks(ctx context.Context, teamID, known int64) (store.Snapshot, error) {
	s.entered <- struct{}{}
	select {
	case <-s.release:
	case <-ctx.Done():
		return store.Snapshot{}, ctx.Err()
	}
	return s.Store.Hooks(ctx, teamID, known)
}

func stallingEnv(t *testing.T, timeout time.Duration) (*env, *stalling) {
	st := &stalling{Store: openStore(t, backends[0], store.Options{}), entered: make(chan struct{}, 8), release: make(chan struct{})}
	e := start(t, backends[0], func(c *Config) { c.Store, c.ShutdownTimeout = st, timeout })
	return e, st
}

// TestGracefulShutdown: once its context ends, Serve stops accepting
// connections at once but finishes the requests in flight, HTTP/2 (gRPC)
// and HTTP/1.1 alike, before it returns.
func TestGracefulShutdown(t *testing.T) {
	e, st := stallingEnv(t, time.Minute)
	calls := make(chan error, 2)
	for _, p := range []protocol{protocols[2], protocols[0]} {
		go func() {
			r, err := e.hooksClient(e.member, p).GetTeamHooks(context.Background(), connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
			if err == nil && r.Msg.TeamName != "platform" {
				err = connect.NewError(connect.CodeUnknown, nil)
			}
			calls <- err
		}()
	}
	for range 2 {
		select {
		case <-st.entered:
		case <-time.After(30 * time.Second):
			t.Fatal("the calls did not reach the store")
		}
	}
	stopped := make(chan error, 1)
	go func() { stopped <- e.stop() }()

	addr := strings.TrimPrefix(e.base, "http://")
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			break // no longer accepting
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("the server still accepts connections 30 s after its context ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned (%v) with requests in flight", err)
	case <-time.After(100 * time.Millisecond):
	}

	close(st.release)
	for range 2 {
		if err := <-calls; err != nil {
			t.Errorf("call in flight at shutdown: %v", err)
		}
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after the last request finished")
	}
}

// TestShutdownTimeout: requests still running after ShutdownTimeout are
// cut, and Serve says so.
func TestShutdownTimeout(t *testing.T) {
	e, st := stallingEnv(t, 200*time.Millisecond)
	calls := make(chan error, 1)
	go func() {
		_, err := e.hooksClient(e.member, protocols[2]).GetTeamHooks(context.Background(), connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
		calls <- err
	}()
	<-st.entered
	start := time.Now()
	err := e.stop()
	if err == nil || !strings.Contains(err.Error(), "were cut") {
		t.Errorf("Serve: %v, want the requests cut", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Serve took %v to give up", d)
	}
	if err := <-calls; err == nil {
		t.Error("a call cut by the shutdown succeeded")
	}
}
