//go:build unix

package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"connectrpc.com/connect"

	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// TestServeProcess runs `agenthooks serve` as a real process on its
// default database (in the state directory): bootstrap commands before
// and while it runs, API calls, and a SIGTERM that ends it cleanly.
func TestServeProcess(t *testing.T) {
	bin, err := exec.LookPath("agenthooks") // testscript.Main put it on PATH
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	env := append(os.Environ(),
		"HOME="+filepath.Join(work, "home"),
		"AGENTHOOKS_STATE_DIR="+filepath.Join(work, "state"),
		"AGENTHOOKS_TEAM_DATABASE=",
		"GORACE=atexit_sleep_ms=0",
	)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("agenthooks %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return strings.TrimSpace(string(out))
	}
	admin := run("serve", "token", "create", "--admin", "--name", "root")
	if teamID := run("serve", "team", "create", "platform"); teamID != "1" {
		t.Fatalf("team id %q", teamID)
	}

	srv := exec.Command(bin, "serve", "--listen", "127.0.0.1:0")
	srv.Env = env
	stderr, err := srv.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Process.Kill() })
	var mu sync.Mutex
	var log strings.Builder
	urls := make(chan string, 1)
	logDone := make(chan struct{})
	go func() {
		defer close(logDone)
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`url=(http://\S+)`)
		for sc.Scan() {
			mu.Lock()
			log.WriteString(sc.Text() + "\n")
			mu.Unlock()
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				urls <- m[1]
			}
		}
	}()
	var base string
	select {
	case base = <-urls:
	case <-time.After(30 * time.Second):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("the server did not say where it listens:\n%s", log.String())
	}

	// A member token made while the server runs works at once.
	member := run("serve", "token", "create", "--team", "platform", "--name", "laptops")
	ctx := context.Background()
	auth := func(secret string) connect.ClientOption {
		return connect.WithInterceptors(connect.UnaryInterceptorFunc(func(next connect.UnaryFunc) connect.UnaryFunc {
			return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
				req.Header().Set("Authorization", "Bearer "+secret)
				return next(ctx, req)
			}
		}))
	}
	adm := teamv1connect.NewAdminServiceClient(http.DefaultClient, base, auth(admin))
	if _, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: 1, Hook: &teamv1.TeamHook{
		HookStep: "stop", ScriptName: "bye.sh", ScriptContent: "#!/bin/sh\necho {}\n", IsActive: true,
	}})); err != nil {
		t.Fatal(err)
	}
	got, err := teamv1connect.NewTeamHooksServiceClient(http.DefaultClient, base, auth(member)).
		GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
	if err != nil || got.Msg.Revision != 1 || len(got.Msg.Hooks) != 1 || got.Msg.Hooks[0].UpdatedBy != "root" {
		t.Fatalf("GetTeamHooks: %v, %v", got, err)
	}

	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-logDone
	werr := srv.Wait()
	mu.Lock()
	defer mu.Unlock()
	if werr != nil || !strings.Contains(log.String(), "msg=stopped") {
		t.Fatalf("after SIGTERM: %v\n%s", werr, log.String())
	}
	if _, err := os.Stat(filepath.Join(work, "state", "team.db")); err != nil {
		t.Errorf("default database: %v", err)
	}
}
