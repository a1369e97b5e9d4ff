package proc

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// A payload larger than a pipe's default gets a pipe as large as it needs,
// up to 1 MiB, from either end (the engine grows a hook's stdin from the
// writing end, the client its own stdin from the reading end); a small
// one leaves the pipe as it is.
func TestGrowPipe(t *testing.T) {
	for i, c := range []struct{ payload, want int }{{100, 64 << 10}, {64 << 10, 64 << 10}, {300 << 10, 300 << 10}, {10 << 20, 1 << 20}, {10 << 20, 1 << 20}} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		end := w
		if i%2 == 1 {
			end = r
		}
		GrowPipe(end, c.payload)
		n, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
		r.Close()
		w.Close()
		// The kernel rounds a size up to a power of two pages.
		if err != nil || n < c.want || n > 2*c.want {
			t.Errorf("payload %d: pipe size %d, %v; want %d", c.payload, n, err, c.want)
		}
	}
}
