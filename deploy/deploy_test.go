package deploy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDockerfile checks what the image promises: a build stage and a
// distroless (shell-less, static) final stage, a static binary, a non-root
// user, the serve port, and a health check that needs no shell.
func TestDockerfile(t *testing.T) {
	instrs := dockerInstructions(t, "Dockerfile")
	var froms, users, healthchecks, exposes []string
	var cgoOff bool
	for _, in := range instrs {
		switch in.cmd {
		case "FROM":
			froms = append(froms, in.args)
		case "USER":
			users = append(users, in.args)
		case "HEALTHCHECK":
			healthchecks = append(healthchecks, in.args)
		case "EXPOSE":
			exposes = append(exposes, in.args)
		case "RUN":
			if strings.Contains(in.args, "CGO_ENABLED=0") && strings.Contains(in.args, "go build") {
				cgoOff = true
			}
		}
	}
	if len(froms) < 2 {
		t.Fatalf("FROM lines %q: want a build stage and a final stage", froms)
	}
	final := froms[len(froms)-1]
	if !strings.HasPrefix(final, "gcr.io/distroless/static") && final != "scratch" {
		t.Errorf("final stage FROM %q: want distroless/static or scratch", final)
	}
	if !cgoOff {
		t.Error("no RUN builds with CGO_ENABLED=0: the binary would need libc")
	}
	if len(users) == 0 {
		t.Fatal("no USER: the server would run as root")
	}
	if u := strings.Fields(users[len(users)-1])[0]; u == "root" || u == "0" || strings.HasPrefix(u, "0:") || strings.HasPrefix(u, "root:") {
		t.Errorf("USER %q is root", u)
	}
	if len(exposes) != 1 || exposes[0] != "8650" {
		t.Errorf("EXPOSE %q: want serve's port 8650", exposes)
	}
	if len(healthchecks) != 1 {
		t.Fatalf("HEALTHCHECK lines %q: want one", healthchecks)
	}
	hc := healthchecks[0]
	if strings.HasPrefix(hc, "NONE") {
		t.Fatal("HEALTHCHECK NONE")
	}
	// Exec form: the distroless image has no /bin/sh for the shell form.
	if !regexp.MustCompile(`CMD \["/usr/local/bin/agenthooks", "health",.*"http://127\.0\.0\.1:8650/healthz"\]$`).MatchString(hc) {
		t.Errorf("HEALTHCHECK %q: want the exec form of agenthooks health on /healthz", hc)
	}
}

type dockerInstruction struct{ cmd, args string }

// dockerInstructions reads a Dockerfile's instructions, joining continued
// lines and dropping comments, as the builder does.
func dockerInstructions(t *testing.T, path string) []dockerInstruction {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []dockerInstruction
	var cur strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if cur.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if cont, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(cont + " ")
			continue
		}
		cur.WriteString(line)
		cmd, args, _ := strings.Cut(cur.String(), " ")
		out = append(out, dockerInstruction{cmd: strings.ToUpper(cmd), args: strings.Join(strings.Fields(args), " ")})
		cur.Reset()
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur.Len() != 0 {
		t.Fatalf("%s ends in a continued line", path)
	}
	return out
}

// TestSystemdUnits runs systemd-analyze verify on each unit, with the
// binary's path pointed at an executable that exists here. Unknown or
// misspelt settings only warn, so any message naming the unit fails.
func TestSystemdUnits(t *testing.T) {
	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []struct {
		name string
		user bool
	}{{"agenthooks-serve.service", false}, {"agenthooks-sync.service", true}} {
		t.Run(u.name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("systemd", u.name))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte("ExecStart=/usr/local/bin/agenthooks ")) {
				t.Fatal("ExecStart does not run /usr/local/bin/agenthooks")
			}
			dir := t.TempDir()
			unit := filepath.Join(dir, u.name)
			b = bytes.ReplaceAll(b, []byte("/usr/local/bin/agenthooks"), []byte(self))
			if err := os.WriteFile(unit, b, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"verify", unit}
			if u.user {
				args = []string{"--user", "verify", unit}
			}
			cmd := exec.CommandContext(context.Background(), analyze, args...)
			// A user manager needs a runtime directory, which a CI
			// container's root session may lack.
			cmd.Env = append(os.Environ(), "XDG_RUNTIME_DIR="+t.TempDir(), "SYSTEMD_LOG_LEVEL=notice")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("systemd-analyze %s: %v\n%s", strings.Join(args, " "), err, out)
			}
			for _, line := range strings.Split(string(out), "\n") {
				if strings.Contains(line, u.name) {
					t.Errorf("systemd-analyze: %s", line)
				}
			}
		})
	}
}

// TestSystemdServeHardening checks the server's sandbox settings are
// present: systemd ignores a missing one silently.
func TestSystemdServeHardening(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("systemd", "agenthooks-serve.service"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"DynamicUser=yes", "StateDirectory=agenthooks", "NoNewPrivileges=yes", "ProtectSystem=strict",
		"ProtectHome=yes", "PrivateTmp=yes", "CapabilityBoundingSet=\n", "SystemCallFilter=@system-service",
		"Environment=AGENTHOOKS_STATE_DIR=%S/agenthooks",
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("agenthooks-serve.service lacks %q", strings.TrimSpace(want))
		}
	}
}

// TestLaunchdPlist checks the agent's plist is well-formed XML and runs
// sync --watch, restarting it when it fails.
func TestLaunchdPlist(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("launchd", "com.agenthooks.sync.plist"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Dict struct {
			Items []struct {
				XMLName xml.Name
				Text    string   `xml:",chardata"`
				Strings []string `xml:"string"`
			} `xml:",any"`
		} `xml:"dict"`
	}
	if err := xml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("plist is not well-formed XML: %v", err)
	}
	items := doc.Dict.Items
	found := map[string]bool{}
	for i := 0; i+1 < len(items); i++ {
		if items[i].XMLName.Local != "key" {
			continue
		}
		key, val := items[i].Text, items[i+1]
		found[key] = true
		switch key {
		case "Label":
			if val.Text != "com.agenthooks.sync" {
				t.Errorf("Label %q", val.Text)
			}
		case "ProgramArguments":
			if got := strings.Join(val.Strings, " "); got != "/usr/local/bin/agenthooks sync --watch" {
				t.Errorf("ProgramArguments %q", got)
			}
		}
	}
	for _, k := range []string{"Label", "ProgramArguments", "EnvironmentVariables", "RunAtLoad", "KeepAlive"} {
		if !found[k] {
			t.Errorf("plist lacks %s", k)
		}
	}
}
