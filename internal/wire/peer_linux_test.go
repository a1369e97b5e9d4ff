package wire

import (
	"errors"
	"os"
	"os/exec"
	"testing"

	"golang.org/x/sys/unix"
)

// TestCheckPeerFD: a peer of this process's own confinement is trusted;
// one more confined (no_new_privs set, as every sandbox sets it) is not.
func TestCheckPeerFD(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	if err := CheckPeerFD(fds[0]); err != nil {
		t.Errorf("this process as its own peer: %v", err)
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("needs setpriv")
	}
	// A confined process listening on a socket of its own; this process
	// connects to it.
	dir := t.TempDir()
	sock := dir + "/s"
	cmd := exec.Command(setpriv, "--no-new-privs", "python3", "-c",
		"import socket,sys,time\ns=socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\ns.listen(1)\nc,_=s.accept()\ntime.sleep(5)", sock)
	if err := cmd.Start(); err != nil {
		t.Skip("needs python3:", err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	for i := 0; ; i++ {
		if err = unix.Connect(fd, &unix.SockaddrUnix{Name: sock}); err == nil || i > 200 {
			break
		}
		exec.Command("sleep", "0.02").Run()
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckPeerFD(fd); !errors.Is(err, ErrConfinedPeer) {
		t.Errorf("a peer with no_new_privs set: %v, want ErrConfinedPeer", err)
	}
	_ = os.Remove(sock)
}

// BenchmarkCheckPeerFD is what the check adds to each step, on each side.
func BenchmarkCheckPeerFD(b *testing.B) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	for b.Loop() {
		if err := CheckPeerFD(fds[0]); err != nil {
			b.Fatal(err)
		}
	}
}
