package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/team/server"
	"github.com/agenthooks/agenthooks/team/store"
)

// TestServeDashboard: `agenthooks serve` serves the dashboard at /, with
// its security policy, unless --no-dashboard; the API answers either way.
func TestServeDashboard(t *testing.T) {
	for _, noDashboard := range []bool{false, true} {
		db := "sqlite:" + filepath.Join(t.TempDir(), "team.db")
		var stderr bytes.Buffer
		addrs := make(chan string, 1)
		o := &serveOptions{
			io:             &IO{In: strings.NewReader(""), Out: io.Discard, Err: &stderr},
			listen:         "127.0.0.1:0",
			database:       db,
			maxScriptBytes: store.DefaultMaxScriptBytes,
			uploadRate:     server.DefaultUploadRate, uploadDaily: store.DefaultDailyDecisionsPerToken,
			noDashboard: noDashboard,
			ready:       func(addr string) { addrs <- addr },
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- o.run(ctx) }()
		var base string
		select {
		case addr := <-addrs:
			base = "http://" + addr
		case err := <-done:
			cancel()
			t.Fatalf("serve: %v\n%s", err, stderr.String())
		case <-time.After(30 * time.Second):
			cancel()
			t.Fatal("the server did not start within 30 s")
		}

		client := &http.Client{Transport: &http.Transport{}}
		res, err := client.Get(base + "/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if noDashboard {
			if res.StatusCode != http.StatusNotFound {
				t.Errorf("--no-dashboard: GET / is %s", res.Status)
			}
		} else if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Team hooks") ||
			!strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
			t.Errorf("GET /: %s, CSP %q\n%s", res.Status, res.Header.Get("Content-Security-Policy"), body)
		}
		// The API is there either way (and wants a token).
		res, err = client.Post(base+"/agenthooks.team.v1.AdminService/ListTeams", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("ListTeams without a token: %s", res.Status)
		}
		client.CloseIdleConnections()
		cancel()
		if err := <-done; err != nil {
			t.Fatalf("serve: %v", err)
		}
	}
}
