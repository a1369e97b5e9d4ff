package front

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// growPipe takes a pipe from its default 64 KiB to 1 MiB.
func TestGrowPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	growPipe(r)
	if n, err := unix.FcntlInt(w.Fd(), unix.F_GETPIPE_SZ, 0); err != nil || n != 1<<20 {
		t.Fatalf("pipe size %d, %v; want 1 MiB", n, err)
	}
}
