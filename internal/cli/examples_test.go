package cli_test

import (
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/internal/cli"
)

// exampleOrder is the order a newcomer meets the verbs in (agenthooks
// --help): each example runs after the ones before it, in one home, as
// they would be typed. The team verbs run against the server that
// serve's own example starts.
var exampleOrder = []string{
	"setup", "demo", "init", "doctor",
	"test", "trust", "list", "log", "validate", "exec",
	"install", "uninstall", "export", "run", "contract",
	"serve", "health", "sync", "team",
	"policy", "engine", "settings", "schema", "version",
}

// TestVerbExamplesWork holds every verb's help to one example, and runs
// each as written, with agenthooks on PATH, in a fresh home: it must
// exit 0 (serve's, a server, must still be serving).
func TestVerbExamplesWork(t *testing.T) {
	bin, err := exec.LookPath("agenthooks")
	if err != nil {
		t.Fatalf("the test binary is not on PATH as agenthooks: %v", err)
	}
	root := cli.NewRoot(&cli.IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	examples := map[string]string{}
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		ex := strings.TrimSpace(c.Example)
		if ex == "" || strings.Contains(ex, "\n") {
			t.Errorf("%s: want one example in its help, got %q", c.Name(), c.Example)
			continue
		}
		if !slices.Contains(exampleOrder, c.Name()) {
			t.Errorf("%s: not in exampleOrder, so its example is not run: add it", c.Name())
		}
		examples[c.Name()] = ex
	}
	if l, err := net.Listen("tcp", "127.0.0.1:8650"); err != nil {
		t.Fatalf("serve's example listens on its default address, 127.0.0.1:8650, which is taken here: %v", err)
	} else {
		l.Close()
	}

	tmp := t.TempDir()
	work := filepath.Join(tmp, "work")
	for _, d := range []string{"home", "work"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{
		"HOME=" + filepath.Join(tmp, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(tmp, "xdg"),
		"AGENTHOOKS_CONFIG_DIR=" + filepath.Join(tmp, "config"),
		"AGENTHOOKS_STATE_DIR=" + filepath.Join(tmp, "state"),
		"AGENTHOOKS_ENTERPRISE_CONFIG=" + filepath.Join(tmp, "etc", "hooks.json"),
		"AGENTHOOKS_ENGINE=off",
		"PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + "/usr/bin" + string(os.PathListSeparator) + "/bin",
		"GORACE=atexit_sleep_ms=0",
	}
	run := func(name, line string, extra ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sh", "-c", line)
		cmd.Dir, cmd.Env = work, append(append([]string(nil), env...), extra...)
		out, err := cmd.CombinedOutput()
		t.Logf("%s: %s\n%s", name, line, out)
		if err != nil {
			t.Errorf("%s's example %q: %v\n%s", name, line, err, out)
		}
	}
	for _, name := range exampleOrder {
		ex, ok := examples[name]
		if !ok {
			t.Errorf("%s: in exampleOrder, but no such verb (or it has no example)", name)
			continue
		}
		switch name {
		case "serve":
			// The server's example runs in the background; health's
			// example (next) waits for it, sync's uses a team on it.
			run("serve", "agenthooks serve team create platform")
			ctx, cancel := context.WithCancel(context.Background())
			srv := exec.CommandContext(ctx, "sh", "-c", "exec "+ex)
			srv.Dir, srv.Env = work, env
			var log strings.Builder
			srv.Stdout, srv.Stderr = &log, &log
			if err := srv.Start(); err != nil {
				t.Fatalf("serve's example %q: %v", ex, err)
			}
			t.Cleanup(func() {
				cancel()
				_ = srv.Wait()
			})
			if !waitHealthy(t, work, env) {
				t.Fatalf("serve's example %q is not serving /healthz after 20s:\n%s", ex, log.String())
			}
		case "sync":
			cmd := exec.Command("agenthooks", "serve", "token", "create", "--team", "platform", "--name", "example-sync")
			cmd.Dir, cmd.Env = work, env
			secret, err := cmd.Output()
			if err != nil {
				t.Fatalf("token for sync's example: %v", err)
			}
			run(name, ex, "AGENTHOOKS_TEAM_SERVER=http://127.0.0.1:8650", "AGENTHOOKS_TEAM_TOKEN="+strings.TrimSpace(string(secret)))
		case "team":
			// The admin's verbs, with an admin token of the same server.
			cmd := exec.Command("agenthooks", "serve", "token", "create", "--admin", "--name", "example-team")
			cmd.Dir, cmd.Env = work, env
			secret, err := cmd.Output()
			if err != nil {
				t.Fatalf("admin token for team's example: %v", err)
			}
			run(name, ex, "AGENTHOOKS_TEAM_SERVER=http://127.0.0.1:8650", "AGENTHOOKS_TEAM_TOKEN="+strings.TrimSpace(string(secret)))
		default:
			run(name, ex)
		}
	}
}

// waitHealthy runs health's example until it answers ok.
func waitHealthy(t *testing.T, dir string, env []string) bool {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		cmd := exec.Command("agenthooks", "health")
		cmd.Dir, cmd.Env = dir, env
		if cmd.Run() == nil {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// TestHelpLinksAreURLs holds every verb's help to links a user with the
// binary alone can follow: no bare docs/….md path.
func TestHelpLinksAreURLs(t *testing.T) {
	root := cli.NewRoot(&cli.IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	bare := regexp.MustCompile(`(^|[^/\w])docs/[\w-]+\.md`)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		var b strings.Builder
		c.SetOut(&b)
		_ = c.Help()
		if m := bare.FindString(b.String()); m != "" {
			t.Errorf("%s --help names %q: write it as a full URL (docsURL)", c.CommandPath(), strings.TrimSpace(m))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
