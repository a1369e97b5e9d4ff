package sandbox

import (
	"fmt"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// helperProbe tries one channel of the threat model from where it runs
// (inside the sandbox, in the kernel tests) and exits 0 when it got
// through, 3 when the kernel refused. It uses the system calls
// themselves, as an attacker would, not a library that might avoid them.
func helperProbe(kind, arg string) int {
	err := probe(kind, arg)
	if err != nil {
		fmt.Println("refused:", err)
		return 3
	}
	if kind == "read" {
		b, _ := os.ReadFile(arg)
		fmt.Printf("read: %s\n", strings.ReplaceAll(string(b), "\x00", " "))
	}
	fmt.Println("got through")
	return 0
}

func probe(kind, arg string) error {
	switch kind {
	case "tcp-fastopen": // sendto with MSG_FASTOPEN: a connect without connect(2)
		sa, err := inet4(arg)
		if err != nil {
			return err
		}
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		return unix.Sendto(fd, []byte("fastopen\n"), unix.MSG_FASTOPEN, sa)
	case "tcp-fastopen-sendmsg":
		sa, err := inet4(arg)
		if err != nil {
			return err
		}
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		_, err = unix.SendmsgN(fd, []byte("fastopen\n"), nil, sa, unix.MSG_FASTOPEN)
		return err
	case "tcp-fastopen-connect": // the socket option, then connect
		sa, err := inet4(arg)
		if err != nil {
			return err
		}
		fd, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		if err := unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_FASTOPEN_CONNECT, 1); err != nil {
			return err
		}
		if err := unix.Connect(fd, sa); err != nil {
			return err
		}
		_, err = unix.Write(fd, []byte("fastopen\n"))
		return err
	case "unix": // a pathname unix socket outside
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		return unix.Connect(fd, &unix.SockaddrUnix{Name: arg})
	case "unix-listen": // a socket of its own, to stand in for another
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		return unix.Bind(fd, &unix.SockaddrUnix{Name: arg})
	case "abstract": // an abstract unix socket outside
		fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		if err != nil {
			return err
		}
		defer unix.Close(fd)
		return unix.Connect(fd, &unix.SockaddrUnix{Name: "@" + arg})
	case "socketpair": // allowed: a pair reaches nothing
		fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
		if err == nil {
			unix.Close(fds[0])
			unix.Close(fds[1])
		}
		return err
	case "vsock":
		return socketOnly(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
	case "packet":
		return socketOnly(unix.AF_PACKET, unix.SOCK_RAW, 0)
	case "raw":
		return socketOnly(unix.AF_INET, unix.SOCK_RAW, unix.IPPROTO_ICMP)
	case "icmp":
		return socketOnly(unix.AF_INET, unix.SOCK_DGRAM, unix.IPPROTO_ICMP)
	case "netlink-usersock":
		return socketOnly(unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_USERSOCK)
	case "io_uring":
		var params [120]byte // struct io_uring_params, zeroed
		fd, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params[0])), 0)
		if e != 0 {
			return e
		}
		return unix.Close(int(fd))
	case "signal": // SIGCONT: harmless, and refused like any other
		pid, err := strconv.Atoi(arg)
		if err != nil {
			return err
		}
		return unix.Kill(pid, unix.SIGCONT)
	case "read": // /proc/PID/environ and the like
		_, err := os.ReadFile(arg)
		return err
	}
	return fmt.Errorf("unknown probe %q", kind)
}

func socketOnly(family, typ, proto int) error {
	fd, err := unix.Socket(family, typ, proto)
	if err == nil {
		unix.Close(fd)
	}
	return err
}

func inet4(addr string) (*unix.SockaddrInet4, error) {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return nil, err
	}
	return &unix.SockaddrInet4{Port: int(ap.Port()), Addr: ap.Addr().As4()}, nil
}
