//go:build unix

package agent

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe no one writes to is refused at once, not waited on: the
// model can make one with mkfifo and ask to read it.
func TestReadBoundedFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	content, truncated, err := ReadBounded(MaxContent)(p)
	if err == nil || !strings.Contains(err.Error(), "not a regular file") || content != "" || truncated {
		t.Fatalf("read of a fifo: %q %v %v", content, truncated, err)
	}
	// The kernel's files call themselves regular; some never end a read.
	if _, err := os.Stat("/proc/kmsg"); err == nil {
		if _, _, err := ReadBounded(MaxContent)("/proc/kmsg"); err == nil {
			t.Error("/proc/kmsg was read")
		}
	}
}
