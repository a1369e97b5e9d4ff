package cli_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/cli"
	"github.com/agenthooks/agenthooks/team/server"
	"github.com/agenthooks/agenthooks/team/store"
)

// TestHealthProbe runs the probe against a real team server on a free
// port: 200 while it serves, a failure once it has stopped, so the
// container's HEALTHCHECK tells the two apart.
func TestHealthProbe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := store.Open(ctx, "sqlite:"+filepath.Join(t.TempDir(), "team.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(server.Config{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	url := "http://" + addr + "/healthz"
	var out, errOut bytes.Buffer
	code := -1
	for range 100 {
		out.Reset()
		errOut.Reset()
		code = cli.Execute(&cli.IO{Out: &out, Err: &errOut}, []string{"health", url, "--timeout", "2s"})
		if code == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code != 0 {
		t.Fatalf("health = %d against a running server; stderr %q", code, errOut.String())
	}
	if !strings.Contains(out.String(), "ok") {
		t.Errorf("health printed %q, want the server's ok", out.String())
	}

	// A server that answers but is not healthy fails the probe.
	sickLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sick := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "database unavailable", http.StatusServiceUnavailable)
	})}
	go func() { _ = sick.Serve(sickLn) }()
	t.Cleanup(func() { _ = sick.Close() })
	errOut.Reset()
	if code := cli.Execute(&cli.IO{Out: &out, Err: &errOut}, []string{"health", "http://" + sickLn.Addr().String() + "/healthz"}); code != cli.ExitProblems {
		t.Errorf("health = %d against a 503, want %d", code, cli.ExitProblems)
	}
	if !strings.Contains(errOut.String(), "503") {
		t.Errorf("stderr %q does not give the status", errOut.String())
	}

	// The stopped server fails the probe.
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("serve: %v", err)
	}
	errOut.Reset()
	if code := cli.Execute(&cli.IO{Out: &out, Err: &errOut}, []string{"health", url}); code != cli.ExitProblems {
		t.Errorf("health = %d with the server stopped, want %d", code, cli.ExitProblems)
	}
}
