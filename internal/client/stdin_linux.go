package client

import (
	"syscall"
	"unsafe"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// hugePage is the size of a transparent huge page on x86-64 and arm64.
const hugePage = 2 << 20

// bigBuffer reserves room for the largest body, empty, and asks the
// kernel to back it with huge pages: the memory is faulted in only as the
// payload fills it, 2 MiB at a fault instead of 4 KiB (ten megabytes are
// five faults, not two and a half thousand, which in a virtual machine
// cost more than reading the bytes). Nil when the reservation fails; the
// process is short-lived, so the reservation is never returned.
func bigBuffer() []byte {
	size := int(wire.MaxBody) + hugePage
	mem, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE)
	if err != nil {
		return nil
	}
	// Huge pages need an aligned start.
	off := 0
	if r := uintptr(unsafe.Pointer(unsafe.SliceData(mem))) % hugePage; r != 0 {
		off = int(hugePage - r)
	}
	buf := mem[off : off+int(wire.MaxBody) : off+int(wire.MaxBody)]
	_ = syscall.Madvise(buf, syscall.MADV_HUGEPAGE)
	return buf[:0]
}
