package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The socket filter closes what Landlock ABI 4–9 leaves open when the
// network goes through the proxy: Landlock restricts connect and bind on
// plain TCP sockets only. Refused with EACCES: UDP (DNS and QUIC could
// carry data out), raw and packet sockets; with EPROTONOSUPPORT, so
// programs fall back to plain TCP: Multipath TCP and SCTP stream sockets.
// io_uring is refused as a whole (ENOSYS): it can open sockets without
// socket(2). Other families (unix, netlink) pass.

// Offsets in struct seccomp_data.
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on little-endian machines
	offArg1 = 24
	offArg2 = 32
)

const (
	ipprotoMPTCP  = 262
	sockTypeMask  = 0xf
	x32SyscallBit = 0x40000000
)

// archParams are the values the filter checks for this architecture.
type archParams struct {
	audit      uint32
	socket     uint32
	ioUring    uint32
	x32Reserve bool
}

func params() (archParams, bool) {
	switch runtime.GOARCH {
	case "amd64":
		return archParams{audit: unix.AUDIT_ARCH_X86_64, socket: unix.SYS_SOCKET, ioUring: unix.SYS_IO_URING_SETUP, x32Reserve: true}, true
	case "arm64":
		return archParams{audit: unix.AUDIT_ARCH_AARCH64, socket: unix.SYS_SOCKET, ioUring: unix.SYS_IO_URING_SETUP}, true
	}
	return archParams{}, false
}

// socketFilter is the BPF program, or nil on an architecture it does not
// know.
func socketFilter() []unix.SockFilter {
	a, ok := params()
	if !ok {
		return nil
	}
	ret := func(v uint32) unix.SockFilter { return bpfStmt(unix.BPF_RET|unix.BPF_K, v) }
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	// Jumps are relative; each block's offsets count the instructions
	// between the jump and its target.
	prog := []unix.SockFilter{
		/* 0 */ bpfStmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArch),
		/* 1 */ bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, a.audit, 1, 0),
		/* 2 */ ret(unix.SECCOMP_RET_KILL_PROCESS), // another ABI (i386 on amd64): not checked, not run
		/* 3 */ bpfStmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offNr),
	}
	if a.x32Reserve {
		prog = append(prog,
			bpfJump(unix.BPF_JMP|unix.BPF_JGE|unix.BPF_K, x32SyscallBit, 0, 1),
			ret(errno(unix.ENOSYS)))
	}
	prog = append(prog,
		bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, a.ioUring, 0, 1),
		ret(errno(unix.ENOSYS)),
		bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, a.socket, 1, 0),
		ret(allow),
		// socket(domain, type, protocol)
		bpfStmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArg0),
		bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, unix.AF_INET, 3, 0),
		bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, unix.AF_INET6, 2, 0),
		bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, unix.AF_PACKET, 8, 0),
		ret(allow),
		// AF_INET, AF_INET6: plain TCP only.
		bpfStmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArg1),
		bpfStmt(unix.BPF_ALU|unix.BPF_AND|unix.BPF_K, sockTypeMask),
		bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, unix.SOCK_STREAM, 0, 4),
		bpfStmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArg2),
		bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, 0, 3, 0),
		bpfJump(unix.BPF_JMP|unix.BPF_JEQ|unix.BPF_K, unix.IPPROTO_TCP, 2, 0),
		ret(errno(unix.EPROTONOSUPPORT)),
		ret(errno(unix.EACCES)),
		ret(allow),
	)
	return prog
}

func bpfStmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }

func bpfJump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
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
