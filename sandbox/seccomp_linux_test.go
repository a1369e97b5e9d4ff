package sandbox

import (
	"encoding/binary"
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestFilterNumbersAreThisMachines holds the architecture table to the
// system call numbers golang.org/x/sys knows for the machine the test runs
// on (CI runs it on each release architecture it has).
func TestFilterNumbersAreThisMachines(t *testing.T) {
	a, ok := arches[runtime.GOARCH]
	if !ok {
		t.Skipf("no socket filter for %s: the sandbox refuses to run here", runtime.GOARCH)
	}
	want := archParams{audit: a.audit, x32Reserve: a.x32Reserve,
		socket: unix.SYS_SOCKET, socketpair: unix.SYS_SOCKETPAIR, sendto: unix.SYS_SENDTO,
		sendmsg: unix.SYS_SENDMSG, sendmmsg: unix.SYS_SENDMMSG, setsockopt: unix.SYS_SETSOCKOPT,
		ioUringSetup: unix.SYS_IO_URING_SETUP, ioUringEnter: unix.SYS_IO_URING_ENTER, ioUringRegister: unix.SYS_IO_URING_REGISTER}
	if a != want {
		t.Errorf("the table for %s is %+v, want %+v", runtime.GOARCH, a, want)
	}
}

// TestFilterDecisions runs the filter of every release architecture in a
// BPF interpreter over the calls of the threat model (docs/sandbox.md).
func TestFilterDecisions(t *testing.T) {
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	eacces := unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)
	noproto := unix.SECCOMP_RET_ERRNO | uint32(unix.EPROTONOSUPPORT)
	nosys := unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)
	for name, a := range arches {
		for _, proxied := range []bool{false, true} {
			prog, err := buildFilter(a, proxied)
			if err != nil {
				t.Fatal(err)
			}
			net := func(ifProxied, ifOpen uint32) uint32 {
				if proxied {
					return ifProxied
				}
				return ifOpen
			}
			cases := []struct {
				what string
				nr   uint32
				args [4]uint32
				want uint32
			}{
				{"read", 0xfff, [4]uint32{}, allow},
				{"io_uring_setup", a.ioUringSetup, [4]uint32{}, nosys},
				{"io_uring_enter", a.ioUringEnter, [4]uint32{}, nosys},
				{"io_uring_register", a.ioUringRegister, [4]uint32{}, nosys},
				{"unix socket", a.socket, [4]uint32{unix.AF_UNIX, unix.SOCK_STREAM}, eacces},
				{"unix datagram", a.socket, [4]uint32{unix.AF_UNIX, unix.SOCK_DGRAM | unix.SOCK_CLOEXEC}, eacces},
				{"socketpair", a.socketpair, [4]uint32{unix.AF_UNIX, unix.SOCK_STREAM}, allow},
				{"vsock", a.socket, [4]uint32{unix.AF_VSOCK, unix.SOCK_STREAM}, eacces},
				{"packet", a.socket, [4]uint32{unix.AF_PACKET, unix.SOCK_RAW}, eacces},
				{"bluetooth", a.socket, [4]uint32{unix.AF_BLUETOOTH, unix.SOCK_STREAM}, eacces},
				{"alg", a.socket, [4]uint32{unix.AF_ALG, unix.SOCK_SEQPACKET}, eacces},
				{"netlink route", a.socket, [4]uint32{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_ROUTE}, allow},
				{"netlink usersock", a.socket, [4]uint32{unix.AF_NETLINK, unix.SOCK_RAW, unix.NETLINK_USERSOCK}, eacces},
				{"tcp", a.socket, [4]uint32{unix.AF_INET, unix.SOCK_STREAM | unix.SOCK_NONBLOCK, 0}, allow},
				{"tcp6", a.socket, [4]uint32{unix.AF_INET6, unix.SOCK_STREAM, unix.IPPROTO_TCP}, allow},
				{"udp", a.socket, [4]uint32{unix.AF_INET, unix.SOCK_DGRAM}, net(eacces, allow)},
				{"raw", a.socket, [4]uint32{unix.AF_INET6, unix.SOCK_RAW, unix.IPPROTO_ICMPV6}, net(eacces, allow)},
				{"mptcp", a.socket, [4]uint32{unix.AF_INET, unix.SOCK_STREAM, ipprotoMPTCP}, net(noproto, allow)},
				{"sctp", a.socket, [4]uint32{unix.AF_INET, unix.SOCK_STREAM, unix.IPPROTO_SCTP}, net(noproto, allow)},
				{"sendto", a.sendto, [4]uint32{3, 0, 10, unix.MSG_NOSIGNAL}, allow},
				{"sendto fast open", a.sendto, [4]uint32{3, 0, 10, unix.MSG_FASTOPEN | unix.MSG_NOSIGNAL}, net(eacces, allow)},
				{"sendmsg", a.sendmsg, [4]uint32{3, 0, 0}, allow},
				{"sendmsg fast open", a.sendmsg, [4]uint32{3, 0, unix.MSG_FASTOPEN}, net(eacces, allow)},
				{"sendmmsg fast open", a.sendmmsg, [4]uint32{3, 0, 1, unix.MSG_FASTOPEN}, net(eacces, allow)},
				{"setsockopt nodelay", a.setsockopt, [4]uint32{3, unix.IPPROTO_TCP, unix.TCP_NODELAY}, allow},
				{"setsockopt fast open connect", a.setsockopt, [4]uint32{3, unix.IPPROTO_TCP, unix.TCP_FASTOPEN_CONNECT}, net(eacces, allow)},
				{"setsockopt option 30 of another level", a.setsockopt, [4]uint32{3, unix.SOL_SOCKET, unix.TCP_FASTOPEN_CONNECT}, allow},
			}
			if a.x32Reserve {
				cases = append(cases, struct {
					what string
					nr   uint32
					args [4]uint32
					want uint32
				}{"x32 socket", x32SyscallBit | 41, [4]uint32{unix.AF_INET, unix.SOCK_DGRAM}, nosys})
			}
			for _, c := range cases {
				if got := runBPF(t, prog, a.audit, c.nr, c.args); got != c.want {
					t.Errorf("%s, proxied %v: %s: got %#x, want %#x", name, proxied, c.what, got, c.want)
				}
			}
			if got := runBPF(t, prog, a.audit^1, a.socket, [4]uint32{unix.AF_INET}); got != unix.SECCOMP_RET_KILL_PROCESS {
				t.Errorf("%s: a call of another ABI is not killed: %#x", name, got)
			}
		}
	}
}

// runBPF interprets the classic BPF the filter uses over one
// seccomp_data (little-endian), and returns its verdict.
func runBPF(t *testing.T, prog []unix.SockFilter, arch, nr uint32, args [4]uint32) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.LittleEndian.PutUint32(data[offNr:], nr)
	binary.LittleEndian.PutUint32(data[offArch:], arch)
	for i, v := range args {
		binary.LittleEndian.PutUint32(data[offArg(i):], v)
	}
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case unix.BPF_ALU | unix.BPF_AND | unix.BPF_K:
			acc &= in.K
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			var ok bool
			switch in.Code &^ (unix.BPF_JMP | unix.BPF_K) {
			case unix.BPF_JEQ:
				ok = acc == in.K
			case unix.BPF_JGE:
				ok = acc >= in.K
			default:
				ok = acc&in.K != 0
			}
			if ok {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		default:
			t.Fatalf("instruction %d: code %#x the interpreter does not know", pc, in.Code)
		}
	}
	t.Fatal("the filter ran off its end")
	return 0
}
