package shellscan

import (
	"fmt"
	"testing"
)

// BenchmarkCommands is the shell analysis alone.
func BenchmarkCommands(b *testing.B) {
	for _, line := range []string{
		"git push origin main",
		`cd repo && FOO=1 sudo -u bob bash -c "git -C x push origin HEAD:main" | tee log`,
	} {
		b.Run(fmt.Sprintf("%d bytes", len(line)), func(b *testing.B) {
			for b.Loop() {
				if len(Commands(line)) == 0 {
					b.Fatal("no commands")
				}
			}
		})
	}
}
