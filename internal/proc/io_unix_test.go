//go:build unix

package proc

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestInvalidUTF8Preserved(t *testing.T) {
	want := []byte{0xff, 0xfe, 0x00, 0xc0, 'a', 0x80, '\n'}
	res, _ := run(t, Spec{Command: `printf '\377\376\000\300a\200\n'; printf '\377\000' >&2`})
	if !bytes.Equal(res.Stdout, want) {
		t.Errorf("stdout % x, want % x", res.Stdout, want)
	}
	if !bytes.Equal(res.Stderr, []byte{0xff, 0x00}) {
		t.Errorf("stderr % x", res.Stderr)
	}
}

// TestLargeStdinEchoed: 50 MB through cat, written while the output is read.
func TestLargeStdinEchoed(t *testing.T) {
	payload := make([]byte, 50<<20)
	if _, err := rand.Read(payload); err != nil {
		t.Fatal(err)
	}
	res, _ := run(t, Spec{Command: "cat", Stdin: payload, Timeout: time.Minute})
	if res.ExitCode != 0 || !res.Direct || res.Overflow != "" {
		t.Fatalf("code %d direct %v overflow %q stderr %q", res.ExitCode, res.Direct, res.Overflow, res.Stderr)
	}
	if sha256.Sum256(res.Stdout) != sha256.Sum256(payload) {
		t.Errorf("echoed %d bytes, not identical to the %d sent", len(res.Stdout), len(payload))
	}
}

// TestStdinNeverRead: hooks that ignore a 50 MB stdin and exit do not block
// us, and the broken pipe does not kill the test binary with SIGPIPE (if it
// did, this test would never report).
func TestStdinNeverRead(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "ignore.sh", "#!/bin/sh\necho ignored\n", 0o755)
	payload := bytes.Repeat([]byte("x"), 50<<20)
	for _, command := range []string{"./ignore.sh", "sleep 0.2", "exec 0<&-; sleep 0.2; echo closed"} {
		res, elapsed := run(t, Spec{Command: command, Dir: dir, Stdin: payload, Timeout: time.Minute})
		if res.ExitCode != 0 || res.Signal != "" {
			t.Errorf("%s: code %d signal %q stderr %q", command, res.ExitCode, res.Signal, res.Stderr)
		}
		if elapsed > 5*time.Second {
			t.Errorf("%s: took %v", command, elapsed)
		}
	}
}

func TestOutputCap(t *testing.T) {
	const total = 200 << 20
	dir := t.TempDir()
	tests := []struct {
		name         string
		command      string
		spec         Spec
		wantOverflow string
		wantLen      int
	}{
		{"stdout, direct", "head -c 209715200 /dev/zero", Spec{StdoutCap: 1 << 20}, "stdout", 1 << 20},
		{"stdout, shell", "head -c 209715200 /dev/zero; echo done > marker", Spec{StdoutCap: 1 << 20}, "stdout", 1 << 20},
		{"stdout, default cap", "head -c 209715200 /dev/zero", Spec{}, "stdout", DefaultStdoutCap},
		{"stderr, default cap", "head -c 209715200 /dev/zero >&2; echo done > marker", Spec{}, "stderr", DefaultStderrCap},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.spec
			s.Command, s.Dir = tt.command, dir
			res, elapsed := run(t, s)
			got := res.Stdout
			if tt.wantOverflow == "stderr" {
				got = res.Stderr
			}
			if res.Overflow != tt.wantOverflow || len(got) != tt.wantLen || res.ExitCode != -1 {
				t.Errorf("overflow %q, kept %d bytes, code %d; want %q, %d, -1", res.Overflow, len(got), res.ExitCode, tt.wantOverflow, tt.wantLen)
			}
			if bytes.IndexFunc(got, func(r rune) bool { return r != 0 }) >= 0 {
				t.Error("kept bytes differ from what was written")
			}
			if _, err := os.Stat(filepath.Join(dir, "marker")); err == nil {
				t.Errorf("the hook ran to its end (%d bytes) instead of being stopped", total)
			}
			if elapsed > 10*time.Second {
				t.Errorf("took %v", elapsed)
			}
		})
	}
}
