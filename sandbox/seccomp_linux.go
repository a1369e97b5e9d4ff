package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The socket filter closes what Landlock leaves open (docs/sandbox.md,
// the threat model). It is installed in every sandbox:
//
//   - unix sockets: socket(AF_UNIX) is refused (EACCES). Before ABI 9
//     Landlock does not restrict connecting to a pathname socket, and
//     every daemon behind one (the resident engine, the user's systemd
//     and D-Bus, ssh-agent, Docker) acts outside the sandbox for whoever
//     connects. socketpair(2) stays: a connected pair reaches nothing.
//   - families other than IPv4, IPv6 and routing netlink (vsock, packet,
//     Bluetooth, CAN, TIPC, AF_ALG, other netlink protocols…): EACCES.
//   - io_uring (ENOSYS): it opens, connects and sends without the
//     system calls below.
//
// and, when the network goes through the proxy, what Landlock's TCP
// rules (connect and bind on TCP sockets) do not see:
//
//   - IPv4 and IPv6 sockets other than plain TCP: UDP, raw, ICMP
//     (EACCES); Multipath TCP and SCTP streams (EPROTONOSUPPORT, so
//     programs fall back to plain TCP).
//   - TCP Fast Open: sendto, sendmsg and sendmmsg with MSG_FASTOPEN
//     connect without connect(2) (EACCES), and the TCP_FASTOPEN_CONNECT
//     option is refused (EACCES).
//
// 32-bit system calls on a 64-bit machine are not checked, so a process
// that makes one is killed.

// Offsets in struct seccomp_data; an argument's low 32 bits on a
// little-endian machine.
const (
	offNr   = 0
	offArch = 4
)

func offArg(i int) uint32 { return 16 + 8*uint32(i) }

const (
	ipprotoMPTCP  = 262
	sockTypeMask  = 0xf
	x32SyscallBit = 0x40000000
)

// archParams are the values the filter checks for one architecture:
// system call numbers differ between them.
type archParams struct {
	audit      uint32
	x32Reserve bool
	socket, socketpair,
	sendto, sendmsg, sendmmsg, setsockopt,
	ioUringSetup, ioUringEnter, ioUringRegister uint32
}

// arches are the architectures the release builds for Linux.
var arches = map[string]archParams{
	"amd64": {audit: unix.AUDIT_ARCH_X86_64, x32Reserve: true,
		socket: 41, socketpair: 53, sendto: 44, sendmsg: 46, sendmmsg: 307, setsockopt: 54,
		ioUringSetup: 425, ioUringEnter: 426, ioUringRegister: 427},
	"arm64": {audit: unix.AUDIT_ARCH_AARCH64,
		socket: 198, socketpair: 199, sendto: 206, sendmsg: 211, sendmmsg: 269, setsockopt: 208,
		ioUringSetup: 425, ioUringEnter: 426, ioUringRegister: 427},
}

// socketFilter is the BPF program for this machine, or nil on an
// architecture it does not know. proxied says the network goes through
// the proxy.
func socketFilter(proxied bool) []unix.SockFilter {
	a, ok := arches[runtime.GOARCH]
	if !ok {
		return nil
	}
	prog, err := buildFilter(a, proxied)
	if err != nil {
		return nil
	}
	return prog
}

// buildFilter assembles the filter for a.
func buildFilter(a archParams, proxied bool) ([]unix.SockFilter, error) {
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	var p bpfProg
	p.ld(offArch)
	p.jeq(a.audit, "native", "")
	p.ret(unix.SECCOMP_RET_KILL_PROCESS) // another ABI (i386 on amd64): not checked, not run
	p.label("native")
	p.ld(offNr)
	if a.x32Reserve {
		p.jge(x32SyscallBit, "nosys", "")
	}
	p.jeq(a.ioUringSetup, "nosys", "")
	p.jeq(a.ioUringEnter, "nosys", "")
	p.jeq(a.ioUringRegister, "nosys", "")
	p.jeq(a.socket, "socket", "")
	if proxied {
		p.jeq(a.sendto, "flags3", "")
		p.jeq(a.sendmmsg, "flags3", "")
		p.jeq(a.sendmsg, "flags2", "")
		p.jeq(a.setsockopt, "sockopt", "")
	}
	p.ret(unix.SECCOMP_RET_ALLOW)

	// socket(domain, type, protocol)
	p.label("socket")
	p.ld(offArg(0))
	p.jeq(unix.AF_INET, "inet", "")
	p.jeq(unix.AF_INET6, "inet", "")
	p.jeq(unix.AF_NETLINK, "netlink", "eacces")
	p.label("netlink")
	p.ld(offArg(2))
	p.jeq(unix.NETLINK_ROUTE, "allow", "eacces")
	p.label("inet")
	if !proxied {
		p.ret(unix.SECCOMP_RET_ALLOW)
	} else {
		// Plain TCP only: what Landlock's TCP rules govern.
		p.ld(offArg(1))
		p.and(sockTypeMask)
		p.jeq(unix.SOCK_STREAM, "", "eacces")
		p.ld(offArg(2))
		p.jeq(0, "allow", "")
		p.jeq(unix.IPPROTO_TCP, "allow", "")
		p.ret(errno(unix.EPROTONOSUPPORT))

		p.label("flags3")
		p.ld(offArg(3))
		p.jset(unix.MSG_FASTOPEN, "eacces", "allow")
		p.label("flags2")
		p.ld(offArg(2))
		p.jset(unix.MSG_FASTOPEN, "eacces", "allow")
		// setsockopt(fd, level, optname, …)
		p.label("sockopt")
		p.ld(offArg(1))
		p.jeq(unix.IPPROTO_TCP, "", "allow")
		p.ld(offArg(2))
		p.jeq(unix.TCP_FASTOPEN_CONNECT, "eacces", "allow")
	}
	p.label("allow")
	p.ret(unix.SECCOMP_RET_ALLOW)
	p.label("eacces")
	p.ret(errno(unix.EACCES))
	p.label("nosys")
	p.ret(errno(unix.ENOSYS))
	return p.assemble()
}

// installFilter loads the filter on this thread; no_new_privs is already
// set, which lets an unprivileged process do so.
func installFilter(prog []unix.SockFilter) error {
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("install the socket filter: %w", err)
	}
	return nil
}
