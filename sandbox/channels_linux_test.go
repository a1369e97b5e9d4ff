package sandbox

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The channels of the threat model (docs/sandbox.md) that the kernel
// closes, each tried from inside the sandbox against something real
// outside it. The ones through agenthooks itself (the engine, the hooks'
// secrets) are tried through the real binaries in seal_linux_test.go.

// listener accepts TCP connections on 127.0.0.1 and reports the first
// line each one sends.
func listener(t *testing.T) (string, <-chan string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	got := make(chan string, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.SetDeadline(time.Now().Add(2 * time.Second))
			line, _ := bufio.NewReader(c).ReadString('\n')
			got <- "connection: " + line
			c.Close()
		}
	}()
	return ln.Addr().String(), got
}

// quiet fails the test if anything reached the listener.
func quiet(t *testing.T, what string, got <-chan string) {
	t.Helper()
	select {
	case m := <-got:
		t.Errorf("%s reached the listener outside: %q", what, m)
	case <-time.After(200 * time.Millisecond):
	}
}

func proxied(t *testing.T) (setup, Policy) {
	s := newSetup(t)
	s.user(t, `{"networkPolicy": {"default": "deny", "allow": ["allowed.test"]}}`)
	return s, s.load(t, nil)
}

func TestKernelTCPFastOpenIsRefused(t *testing.T) {
	s, p := proxied(t)
	self, _ := os.Executable()
	for _, kind := range []string{"tcp-fastopen", "tcp-fastopen-sendmsg", "tcp-fastopen-connect"} {
		addr, got := listener(t)
		out, code := run(t, p, s.ws, self, "helper-probe", kind, addr)
		if code == 0 || !strings.Contains(out, "permission denied") {
			t.Errorf("%s from inside the sandbox: status %d, want a refusal: %s", kind, code, out)
		}
		quiet(t, kind, got)
	}
	// The same probe outside reaches the listener: the test can fail.
	addr, got := listener(t)
	if err := probe("tcp-fastopen", addr); err != nil {
		t.Fatalf("TCP Fast Open outside the sandbox: %v", err)
	}
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("TCP Fast Open outside the sandbox reached nothing: the probe proves nothing")
	}
}

func TestKernelSocketFamiliesAreRefused(t *testing.T) {
	s, p := proxied(t)
	open := p
	open.Network = Network{Default: NetAllow}
	self, _ := os.Executable()
	for _, pol := range []struct {
		name string
		p    Policy
	}{{"network through the proxy", p}, {"network open", open}} {
		for _, kind := range []string{"vsock", "packet", "netlink-usersock", "io_uring"} {
			out, code := run(t, pol.p, s.ws, self, "helper-probe", kind, "-")
			if code == 0 {
				t.Errorf("%s: a %s socket was made inside the sandbox: %s", pol.name, kind, out)
			}
		}
		out, code := run(t, pol.p, s.ws, self, "helper-probe", "socketpair", "-")
		if code != 0 {
			t.Errorf("%s: socketpair, which reaches nothing, was refused: %s", pol.name, out)
		}
	}
	// Outside, each is made: the test can fail.
	for _, kind := range []string{"vsock", "netlink-usersock", "io_uring"} {
		if err := probe(kind, "-"); err != nil {
			t.Errorf("a %s socket cannot be made outside the sandbox either, so its refusal inside proves nothing: %v", kind, err)
		}
	}
	for _, kind := range []string{"raw", "icmp"} {
		out, code := run(t, p, s.ws, self, "helper-probe", kind, "-")
		if code == 0 {
			t.Errorf("a %s socket was made inside the sandbox with a network policy: %s", kind, out)
		}
	}
}

func TestKernelUnixSocketsOutsideAreRefused(t *testing.T) {
	s, p := proxied(t)
	open := p
	open.Network = Network{Default: NetAllow}
	self, _ := os.Executable()
	dir := t.TempDir() // under the temporary folder, which the sandbox may write
	path := filepath.Join(dir, "daemon.sock")
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	abstract := fmt.Sprintf("agenthooks-test-%d", os.Getpid())
	aln, err := net.Listen("unix", "@"+abstract)
	if err != nil {
		t.Fatal(err)
	}
	defer aln.Close()
	accepted := make(chan string, 4)
	for _, l := range []net.Listener{ln, aln} {
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				accepted <- l.Addr().String()
				c.Close()
			}
		}()
	}
	for _, pol := range []Policy{p, open} {
		for _, c := range [][2]string{{"unix", path}, {"abstract", abstract}, {"unix-listen", filepath.Join(dir, "squat.sock")}} {
			out, code := run(t, pol, s.ws, self, "helper-probe", c[0], c[1])
			if code == 0 {
				t.Errorf("%s %s from inside the sandbox (network open: %v) got through: %s", c[0], c[1], pol.Network.Open(), out)
			}
		}
	}
	select {
	case a := <-accepted:
		t.Errorf("a sandboxed command reached the unix socket %s", a)
	case <-time.After(100 * time.Millisecond):
	}
	if err := probe("unix", path); err != nil {
		t.Fatalf("the socket cannot be reached from outside either, so the test proves nothing: %v", err)
	}
}

func TestKernelSignalsAndProcOutsideAreRefused(t *testing.T) {
	s, p := proxied(t)
	self, _ := os.Executable()
	secret := "AGENTHOOKS_TEST_SECRET=" + strconv.Itoa(os.Getpid())
	// A process outside, with a secret in its environment.
	cmd := newOutsideSleeper(t, secret)
	pid := strconv.Itoa(cmd)
	for _, c := range [][2]string{{"signal", pid}, {"read", "/proc/" + pid + "/environ"}, {"read", "/proc/" + pid + "/maps"}} {
		out, code := run(t, p, s.ws, self, "helper-probe", c[0], c[1])
		if code == 0 || strings.Contains(out, secret) {
			t.Errorf("%s %s from inside the sandbox got through: %s", c[0], c[1], out)
		}
	}
	// Outside, both work: the test can fail.
	if err := probe("signal", pid); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile("/proc/" + pid + "/environ"); err != nil || !strings.Contains(string(b), secret) {
		t.Fatalf("the sleeper's environment cannot be read outside either: %v", err)
	}
	if err := probe("read", "/proc/"+pid+"/maps"); err != nil {
		t.Fatal(err)
	}
}

// newOutsideSleeper starts a process outside any sandbox, with env added
// to its environment, and returns its pid; it is killed at the end.
func newOutsideSleeper(t *testing.T, env string) int {
	t.Helper()
	attr := &os.ProcAttr{Env: append(os.Environ(), env), Files: []*os.File{nil, nil, nil}}
	p, err := os.StartProcess("/bin/sleep", []string{"sleep", "60"}, attr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.Signal(unix.SIGKILL)
		_, _ = p.Wait()
	})
	return p.Pid
}
