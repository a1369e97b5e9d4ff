package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/cli"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
)

const syncToken = "member-token-42"

// syncServer is a team server with one hook for every system and one
// for another system than this one.
func syncServer(t *testing.T) *faketeam.Server {
	t.Helper()
	srv := faketeam.New(t, 3, "Platform", syncToken)
	guard := faketeam.Hook(1, "beforeShellExecution", "guard.sh", "#!/bin/sh\necho '{\"permission\":\"deny\"}'\n")
	guard.Matcher = "^rm "
	srv.SetHooks(guard)
	return srv
}

// runSync runs the verb in process.
func runSync(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Execute(&cli.IO{In: strings.NewReader(""), Out: &out, Err: &errb}, append([]string{"sync"}, args...))
	return code, out.String(), errb.String()
}

func TestSyncVerb(t *testing.T) {
	srv := syncServer(t)
	home := t.TempDir()
	hooks := config.TeamHooksDir(home, "3")
	t.Setenv(teamsync.TokenEnv, syncToken)
	t.Setenv(teamsync.ServerEnv, srv.URL)
	stateDir := t.TempDir()
	t.Setenv("AGENTHOOKS_STATE_DIR", stateDir)

	// First time, without --accept: the notice, and nothing installed.
	code, out, errs := runSync(t, "--home", home)
	if code != cli.ExitProblems || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, want := range []string{"This team uses admin-enabled hooks", `"Platform"`, "beforeShellExecution", "guard.sh", "agenthooks sync --show", "re-run with --accept"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if _, err := os.Stat(config.TeamDir(home)); !os.IsNotExist(err) {
		t.Fatalf("something was written: %v", err)
	}

	// --show: the scripts, still nothing installed.
	code, out, _ = runSync(t, "--home", home, "--show")
	if code != 0 || !strings.Contains(out, `echo '{"permission":"deny"}'`) || !strings.Contains(out, "agenthooks sync --accept") ||
		!strings.Contains(out, "This team's audit is off: no decision leaves this machine.") {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	srv.SetAudit(true)
	if code, out, _ = runSync(t, "--home", home, "--show"); code != 0 || !strings.Contains(out, "This team's audit is on. Each sync sends for each deny, ask, block") {
		t.Fatalf("show with the audit on: exit %d\n%s", code, out)
	}
	srv.SetAudit(false)
	// Each request reported this machine, by the id kept in the state folder.
	id, err := os.ReadFile(filepath.Join(stateDir, teamsync.MachineIDFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.Requests() {
		if r.Msg.GetMachine().GetId() != strings.TrimSpace(string(id)) || r.Msg.GetMachine().GetVersion() == "" {
			t.Fatalf("a request reported %+v, not this machine (%s)", r.Msg.GetMachine(), id)
		}
	}
	if _, err := os.Stat(config.TeamDir(home)); !os.IsNotExist(err) {
		t.Fatalf("--show wrote something: %v", err)
	}

	// --accept installs; the next sync finds it unchanged.
	code, out, errs = runSync(t, "--home", home, "--accept")
	if code != 0 || !strings.Contains(out, `team "Platform" (id 3): changed to revision 2: 1 hook(s) in `+hooks) {
		t.Fatalf("accept: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if data, err := os.ReadFile(filepath.Join(hooks, "guard.sh")); err != nil || !strings.Contains(string(data), "deny") {
		t.Fatalf("guard.sh: %q %v", data, err)
	}
	code, out, _ = runSync(t, "--home", home)
	if code != 0 || !strings.Contains(out, "unchanged at revision 2") {
		t.Fatalf("again: exit %d %s", code, out)
	}

	// A hook for another system is skipped with a warning.
	mac := faketeam.Hook(2, "stop", "mac.sh", "#!/bin/sh\n")
	mac.OperatingSystems = []string{"Plan 9"}
	srv.SetRaw(true)
	srv.SetHooks(faketeam.Hook(1, "beforeShellExecution", "guard.sh", "#!/bin/sh\n"), mac)
	code, out, errs = runSync(t, "--home", home)
	if code != 0 || !strings.Contains(errs, `warning: hook 2 ("mac.sh", stop): skipped: it targets Plan 9`) || !strings.Contains(out, "changed to revision 3") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}

	// A refused set keeps the last good one, and says which and why.
	srv.SetHooks(faketeam.Hook(5, "stop", "../evil", "#!/bin/sh\n"))
	code, out, errs = runSync(t, "--home", home)
	if code != cli.ExitProblems || out != "" || !strings.Contains(errs, `kept the last good set (team 3, revision 3)`) || !strings.Contains(errs, `hook 5 ("../evil", stop)`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}

	// A wrong token: refused by the server, same outcome.
	code, _, errs = runSync(t, "--home", home, "--token", "wrong")
	if code != cli.ExitProblems || !strings.Contains(errs, "refused the token") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}

func TestSyncVerbUsage(t *testing.T) {
	home := t.TempDir()
	t.Setenv(teamsync.TokenEnv, "")
	t.Setenv(teamsync.ServerEnv, "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--token", "t"}, "no server URL"},
		{[]string{"--server", "https://hooks.example.com"}, "no token"},
		{[]string{"--server", "http://hooks.example.com", "--token", "t"}, "clear text"},
		{[]string{"--server", "https://hooks.example.com", "--token", "t", "--interval", "1m"}, "--interval needs --watch"},
		{[]string{"--server", "https://hooks.example.com", "--token", "t", "--show", "--accept"}, "--show installs nothing"},
		{[]string{"--server", "https://hooks.example.com", "--token", "t", "--watch", "--interval", "0s"}, "--interval must be positive"},
		{[]string{"extra"}, "unknown command"},
	} {
		code, _, errs := runSync(t, append(tc.args, "--home", home)...)
		if code != cli.ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 64 and %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestSyncVerbUnreachableServer(t *testing.T) {
	home := t.TempDir()
	// A port nothing listens on: the first sync has nothing to keep.
	code, _, errs := runSync(t, "--home", home, "--server", "http://127.0.0.1:1", "--token", "t", "--timeout", "2s")
	if code != cli.ExitProblems || !strings.Contains(errs, "nothing synced") || !strings.Contains(errs, "127.0.0.1:1") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}
