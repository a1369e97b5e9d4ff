//go:build unix

package proc

import (
	"context"
	"os/exec"
	"testing"
)

// truePath is the true(1) binary, named by path so that Run execs it
// directly (the bare word "true" is a shell builtin and goes to sh).
func truePath(b *testing.B) string {
	p, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1) binary")
	}
	return p
}

// BenchmarkRunTrue measures Run's overhead over a bare exec (compare with
// BenchmarkExecTrue).
func BenchmarkRunTrue(b *testing.B) {
	s := Spec{Command: truePath(b)}
	ctx := context.Background()
	for b.Loop() {
		if res := Run(ctx, s); res.ExitCode != 0 || !res.Direct {
			b.Fatalf("got %+v", res)
		}
	}
}

// BenchmarkExecTrue is the baseline: os/exec running the same binary.
func BenchmarkExecTrue(b *testing.B) {
	p := truePath(b)
	for b.Loop() {
		if err := exec.Command(p).Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunTrueViaShell is the same command forced through sh, the cost
// that direct exec saves.
func BenchmarkRunTrueViaShell(b *testing.B) {
	s := Spec{Command: truePath(b) + ";"}
	ctx := context.Background()
	for b.Loop() {
		if res := Run(ctx, s); res.ExitCode != 0 || res.Direct {
			b.Fatalf("got %+v", res)
		}
	}
}
