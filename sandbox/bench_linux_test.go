package sandbox

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/internal/needs"
)

// BenchmarkEnter is the cost of entering the sandbox per command, side by
// side with the bare spawn of the same command (/bin/true), through the
// real engine binary: the trampoline with the network open (one exec into
// Landlock), and with the network through the proxy (the supervisor, the
// proxy, a second exec). Run with -bench Enter -benchtime 200x.
func BenchmarkEnter(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "agenthooks-engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/agenthooks-engine").CombinedOutput(); err != nil {
		b.Fatalf("build the engine: %v\n%s", err, out)
	}
	ws := b.TempDir()
	open := Policy{Configured: true, Type: WorkspaceReadwrite, Roots: []string{ws}, ReadBoundary: ReadSystem, Network: Network{Default: NetAllow}, Unavailable: UnavailableRefuse}
	proxied := open
	proxied.Network = Network{Default: NetDeny, Allow: []Rule{{Pattern: "example.com"}}}
	if err := Supported(proxied); err != nil {
		needs.Missing(b, "the sandbox needs Landlock: "+err.Error())
	}
	cases := []struct {
		name string
		argv []string
	}{
		{"bare", []string{"/bin/true"}},
		{"sandbox-network-open", Wrap(open, bin, []string{"/bin/true"}).Argv},
		{"sandbox-network-proxy", Wrap(proxied, bin, []string{"/bin/true"}).Argv},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if out, err := exec.Command(c.argv[0], c.argv[1:]...).CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", c.argv[:2], err, out)
				}
			}
		})
	}
}
