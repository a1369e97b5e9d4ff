package server

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// trickle sends a request whose body (of a declared 4 KiB) arrives one
// byte a second, with token or without, and returns how long the server
// kept the connection before closing it; it fails the test when the
// server still holds it after limit.
func trickle(t *testing.T, base, token string, limit time.Duration) time.Duration {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	head := "POST /agenthooks.team.v1.AdminService/ListTeams HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n"
	if token != "" {
		head += "Authorization: Bearer " + token + "\r\n"
	}
	if _, err := io.WriteString(conn, head+"\r\n{"); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		_, _ = io.Copy(io.Discard, bufio.NewReader(conn)) // until the server closes
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-closed:
			return time.Since(began)
		case <-tick.C:
			if time.Since(began) > limit {
				t.Fatalf("the server still holds a trickling connection after %v", time.Since(began).Round(time.Second))
			}
			_, _ = io.WriteString(conn, " ") // the server may have closed its side already
		}
	}
}

// TestTrickledBodyIsCutOff: a body sent a byte a second holds no
// connection past the server's read timeout, with or without a token,
// on each store.
func TestTrickledBodyIsCutOff(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			e := start(t, b, func(c *Config) { c.ReadTimeout = 2 * time.Second })
			for _, token := range []string{"", e.admin, e.member} {
				took := trickle(t, e.base, token, 10*time.Second)
				if took < time.Second {
					t.Fatalf("the connection was closed after %v, before the read timeout", took)
				}
			}
		})
	}
}

// TestTrickledBodyDefault: with the default bounds a trickling client
// is cut off within 30 seconds.
func TestTrickledBodyDefault(t *testing.T) {
	if DefaultReadTimeout > 25*time.Second {
		t.Fatalf("DefaultReadTimeout %v leaves no margin below 30 s", DefaultReadTimeout)
	}
	t.Parallel()
	e := start(t, backends[0], nil)
	took := trickle(t, e.base, "", 30*time.Second)
	t.Logf("cut off after %v", took.Round(100*time.Millisecond))
}

// TestBodyOverTheLimitIsRefused: a body longer than the request limit is
// refused without being read to its end.
func TestBodyOverTheLimitIsRefused(t *testing.T) {
	e := start(t, backends[0], func(c *Config) { c.MaxScriptBytes = 1 << 10; c.MaxRequestBytes = 4 << 10 })
	body := `{"name":"` + strings.Repeat("x", 1<<20) + `"}`
	req, err := http.NewRequestWithContext(context.Background(), "POST", e.base+"/agenthooks.team.v1.AdminService/CreateTeam", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.admin)
	resp, err := http1Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK || !strings.Contains(string(out), "resource_exhausted") {
		t.Fatalf("a %d-byte body: %d %s", len(body), resp.StatusCode, out)
	}
}

// TestTrickledBodyIsCutOffOverHTTP2: over HTTP/2 (h2c, as gRPC
// clients speak it), a stream whose body trickles ends at the read
// timeout.
func TestTrickledBodyIsCutOffOverHTTP2(t *testing.T) {
	e := start(t, backends[0], func(c *Config) { c.ReadTimeout = 2 * time.Second })
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() {
		_, _ = io.WriteString(pw, "{")
		for range 30 {
			time.Sleep(time.Second)
			if _, err := io.WriteString(pw, " "); err != nil {
				return
			}
		}
	}()
	req, err := http.NewRequestWithContext(context.Background(), "POST", e.base+"/agenthooks.team.v1.AdminService/ListTeams", pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+e.admin)
	began := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := h2cClient().Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.ProtoMajor != 2 || resp.StatusCode == http.StatusOK {
				t.Errorf("a trickled body over HTTP/2: %s %s", resp.Proto, resp.Status)
			}
		}
	}()
	select {
	case <-done:
		t.Logf("the stream ended after %v", time.Since(began).Round(100*time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Fatal("the server still reads a trickled HTTP/2 body after 10 s")
	}
}
