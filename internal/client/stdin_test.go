package client

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"
	"testing/iotest"
	"unsafe"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// A pipe's payload arrives whole whatever its size and however the
// writer cuts it, through the reservation or without one.
func TestReadPipe(t *testing.T) {
	sizes := []int{0, 1, firstRead - 1, firstRead, firstRead + 1, 3 << 20}
	bigs := map[string]func() []byte{
		"reservation": bigBuffer,
		"doubling":    func() []byte { return nil },
		"small-cap":   func() []byte { return make([]byte, 0, 5<<20) },
	}
	for name, big := range bigs {
		for _, n := range sizes {
			want := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
			got, err := readPipe(iotest.HalfReader(bytes.NewReader(want)), big)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s, %d bytes: got %d bytes, err %v", name, n, len(got), err)
			}
		}
	}
}

// A read error is reported with what was read before it.
func TestReadPipeError(t *testing.T) {
	boom := errors.New("boom")
	for _, n := range []int{10, firstRead + 10} {
		r := io.MultiReader(bytes.NewReader(make([]byte, n)), iotest.ErrReader(boom))
		got, err := readPipe(r, bigBuffer)
		if !errors.Is(err, boom) || len(got) != n {
			t.Errorf("%d bytes then an error: got %d bytes, err %v", n, len(got), err)
		}
	}
}

// On Linux the reservation holds the largest body and starts on a huge
// page's boundary, or the kernel could not back it with huge pages.
func TestBigBuffer(t *testing.T) {
	b := bigBuffer()
	if runtime.GOOS != "linux" {
		if b != nil {
			t.Fatalf("bigBuffer on %s: %d bytes reserved", runtime.GOOS, cap(b))
		}
		return
	}
	if b == nil {
		t.Fatal("no reservation")
	}
	if len(b) != 0 || cap(b) != int(wire.MaxBody) {
		t.Errorf("len %d cap %d, want 0 and %d", len(b), cap(b), wire.MaxBody)
	}
	if p := uintptr(unsafe.Pointer(unsafe.SliceData(b[:1]))); p%(2<<20) != 0 {
		t.Errorf("starts at %#x, not on a 2 MiB boundary", p)
	}
}
