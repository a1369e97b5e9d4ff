package sandbox

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/needs"
)

// setup is a workspace, a home and an enterprise folder of their own.
type setup struct {
	ws, home, ent string
}

func newSetup(t *testing.T) setup {
	t.Helper()
	s := setup{ws: t.TempDir(), home: t.TempDir(), ent: t.TempDir()}
	return s
}

func (s setup) write(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (s setup) user(t *testing.T, body string) {
	s.write(t, filepath.Join(s.home, ".cursor", "sandbox.json"), body)
}
func (s setup) enterprise(t *testing.T, body string) {
	s.write(t, filepath.Join(s.ent, "sandbox.json"), body)
}
func (s setup) project(t *testing.T, body string) {
	s.write(t, filepath.Join(s.ws, ".cursor", "sandbox.json"), body)
}

func (s setup) load(t *testing.T, tr config.Trust) Policy {
	t.Helper()
	l := Load(config.Locations{Home: s.home, WorkspaceRoots: []string{s.ws}, EnterpriseFile: filepath.Join(s.ent, "hooks.json")}, tr)
	if err := l.Err(); err != nil {
		t.Fatal(err)
	}
	return l.Policy
}

// needKernel skips (fails under CI) where this kernel cannot enforce p.
func needKernel(t *testing.T, p Policy) {
	t.Helper()
	if err := Supported(p); err != nil {
		needs.Missing(t, "the sandbox needs Landlock: "+err.Error())
	}
}

// run runs argv in the sandbox p, through the trampoline as exec does,
// with the test binary as the engine; it returns the output and status.
func run(t *testing.T, p Policy, dir string, argv ...string) (string, int) {
	t.Helper()
	needKernel(t, p)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	l := Wrap(p, self, argv)
	if !l.Sandboxed {
		t.Fatalf("Wrap did not sandbox: %+v", l)
	}
	cmd := exec.CommandContext(t.Context(), l.Argv[0], l.Argv[1:]...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

func sh(script string) []string { return []string{"/bin/sh", "-c", script} }

func TestKernelWritesStayInside(t *testing.T) {
	s := newSetup(t)
	extra, outside := t.TempDir(), t.TempDir()
	s.user(t, fmt.Sprintf(`{"disableTmpWrite": true, "additionalReadwritePaths": [%q], "networkPolicy": {"default": "allow"}}`, extra))
	p := s.load(t, nil)
	out, code := run(t, p, s.ws, sh(fmt.Sprintf("echo a > %s/in && echo b > %s/x && echo c > %s/out",
		s.ws, extra, outside))...)
	if code == 0 {
		t.Fatalf("a write outside the workspace succeeded: %s", out)
	}
	if !strings.Contains(out, "Permission denied") {
		t.Errorf("the refusal does not say Permission denied: %s", out)
	}
	for _, f := range []string{filepath.Join(s.ws, "in"), filepath.Join(extra, "x")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("an allowed write did not happen: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "out")); err == nil {
		t.Error("the file outside the allowed paths was written")
	}
}

func TestKernelTmpWritableUnlessDisabled(t *testing.T) {
	s := newSetup(t)
	s.user(t, `{"networkPolicy": {"default": "allow"}}`)
	tmp := t.TempDir() // under the temporary folder
	out, code := run(t, s.load(t, nil), s.ws, sh("echo x > "+tmp+"/f")...)
	if code != 0 {
		t.Fatalf("the temporary folder is not writable by default: %s", out)
	}
}

func TestKernelReadonlyWorkspace(t *testing.T) {
	s := newSetup(t)
	s.user(t, `{"type": "workspace_readonly", "disableTmpWrite": true, "networkPolicy": {"default": "allow"}}`)
	s.write(t, filepath.Join(s.ws, "readme"), "hello")
	p := s.load(t, nil)
	out, code := run(t, p, s.ws, sh("cat readme && echo x > written")...)
	if code == 0 || !strings.Contains(out, "hello") {
		t.Fatalf("workspace_readonly: want the read to work and the write to fail, got %d: %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(s.ws, "written")); err == nil {
		t.Error("workspace_readonly let the workspace be written")
	}
}

func TestKernelReadBoundary(t *testing.T) {
	s := newSetup(t)
	secret := t.TempDir()
	s.write(t, filepath.Join(secret, "key"), "secret")
	s.write(t, filepath.Join(s.ws, "mine"), "mine")
	s.user(t, `{"readBoundary": "workspace", "disableTmpWrite": true, "networkPolicy": {"default": "allow"}}`)
	out, code := run(t, s.load(t, nil), s.ws, sh("cat mine; cat "+secret+"/key")...)
	if code == 0 || strings.Contains(out, "secret") || !strings.Contains(out, "mine") {
		t.Fatalf("readBoundary workspace: want mine read and the key refused, got %d: %s", code, out)
	}
}

func TestKernelSetsidAndSetuidStayInside(t *testing.T) {
	s := newSetup(t)
	outside := t.TempDir()
	tools := t.TempDir()
	// A setuid copy of touch: no_new_privs means running it gains
	// nothing, and Landlock stays whatever the credentials.
	b, err := os.ReadFile("/usr/bin/touch")
	if err != nil {
		t.Skip("no /usr/bin/touch to copy")
	}
	suid := filepath.Join(tools, "touch-suid")
	if err := os.WriteFile(suid, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(suid, 0o4755); err != nil {
		t.Fatal(err)
	}
	s.user(t, `{"disableTmpWrite": true, "networkPolicy": {"default": "allow"}}`)
	p := s.load(t, nil)
	out, code := run(t, p, s.ws, sh(fmt.Sprintf("setsid sh -c 'echo x > %s/a'; %s %s/b; test ! -e %s/a && test ! -e %s/b",
		outside, suid, outside, outside, outside))...)
	if code != 0 {
		t.Fatalf("a setsid child or a setuid program wrote outside: %s", out)
	}
	for _, f := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(outside, f)); err == nil {
			t.Errorf("%s was written outside the sandbox", f)
		}
	}
}

// servers starts two HTTP servers on 127.0.0.1 and returns their ports.
func servers(t *testing.T) (allowedPort, blockedPort int) {
	t.Helper()
	start := func(body string) int {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, body) })}
		go srv.Serve(ln)
		t.Cleanup(func() { srv.Close() })
		return ln.Addr().(*net.TCPAddr).Port
	}
	return start("allowed-body"), start("blocked-body")
}

func TestKernelNetworkAllowList(t *testing.T) {
	s := newSetup(t)
	a, b := servers(t)
	s.user(t, `{"networkPolicy": {"default": "deny", "allow": ["allowed.test"]}}`)
	p := s.load(t, nil)
	self, _ := os.Executable()

	out, code := run(t, p, s.ws, self, "helper-get", fmt.Sprintf("http://allowed.test:%d/", a))
	if code != 0 || !strings.Contains(out, "allowed-body") {
		t.Errorf("the allowed host was not reached (%d): %s", code, out)
	}
	out, code = run(t, p, s.ws, self, "helper-get", fmt.Sprintf("http://blocked.test:%d/", b))
	if code == 0 || strings.Contains(out, "blocked-body") {
		t.Errorf("a host outside the allow list was reached (%d): %s", code, out)
	}
	if !strings.Contains(out, "blocked.test is not in networkPolicy.allow") || !strings.Contains(out, filepath.Join(s.home, ".cursor", "sandbox.json")) {
		t.Errorf("the refusal does not name the rule and its file: %s", out)
	}
	// Around the proxy: straight to the port, over UDP, over Multipath TCP.
	for _, kind := range []string{"tcp", "udp", "mptcp"} {
		out, code = run(t, p, s.ws, self, "helper-dial", kind, fmt.Sprintf("127.0.0.1:%d", b))
		if code == 0 {
			t.Errorf("a direct %s connection got out of the sandbox: %s", kind, out)
		}
	}
}

func TestKernelDenyWinsAndPrivateAddresses(t *testing.T) {
	s := newSetup(t)
	a, _ := servers(t)
	s.user(t, `{"networkPolicy": {"default": "allow", "deny": ["denied.test"]}}`)
	p := s.load(t, nil)
	self, _ := os.Executable()
	out, code := run(t, p, s.ws, self, "helper-get", fmt.Sprintf("http://denied.test:%d/", a))
	if code == 0 || !strings.Contains(out, `networkPolicy.deny "denied.test"`) {
		t.Errorf("a denied host was reached, or the refusal does not say why (%d): %s", code, out)
	}
	// default allow does not open private addresses: other.test maps to
	// 127.0.0.1.
	out, code = run(t, p, s.ws, self, "helper-get", fmt.Sprintf("http://other.test:%d/", a))
	if code == 0 || !strings.Contains(out, "private, loopback or metadata") {
		t.Errorf("a loopback address was reached under default allow (%d): %s", code, out)
	}
}

func TestKernelProjectCannotLoosenEnterprise(t *testing.T) {
	s := newSetup(t)
	a, _ := servers(t)
	outside := t.TempDir()
	s.enterprise(t, `{"type": "workspace_readonly", "disableTmpWrite": true, "networkPolicy": {"default": "deny"}}`)
	s.project(t, fmt.Sprintf(`{"type": "insecure_none", "disableTmpWrite": false, "additionalReadwritePaths": [%q], "networkPolicy": {"default": "allow", "allow": ["allowed.test"]}}`, outside))
	p := s.load(t, trustAll{})
	if p.Type != WorkspaceReadonly || p.Network.Default != NetDeny || !p.DisableTmpWrite {
		t.Fatalf("the project loosened the enterprise policy: %+v", p)
	}
	self, _ := os.Executable()
	out, code := run(t, p, s.ws, sh(fmt.Sprintf("echo x > %s/f; echo y > f; %s helper-get http://allowed.test:%d/", outside, self, a))...)
	if code == 0 {
		t.Errorf("the command did everything the project file tried to allow: %s", out)
	}
	for _, f := range []string{filepath.Join(outside, "f"), filepath.Join(s.ws, "f")} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was written against the enterprise policy", f)
		}
	}
	if strings.Contains(out, "allowed-body") {
		t.Errorf("the network was reached against the enterprise policy: %s", out)
	}
}

func TestKernelExitStatusPassesThrough(t *testing.T) {
	s := newSetup(t)
	s.user(t, `{"networkPolicy": {"default": "deny"}}`)
	_, code := run(t, s.load(t, nil), s.ws, sh("exit 7")...)
	if code != 7 {
		t.Errorf("exit status %d, want 7", code)
	}
	_, code = run(t, s.load(t, nil), s.ws, "no-such-command-anywhere")
	if code != 127 {
		t.Errorf("a missing command: status %d, want 127", code)
	}
}

// trustAll vouches for every project file.
type trustAll struct{}

func (trustAll) Check(string, string, []byte) (bool, string) { return true, "" }
