package client_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The client agents spawn for every step links the standard library, the
// protocol, the engine's lock and the process runner (with which it runs
// exec's command: the pseudo-terminal and terminal packages) only: none of
// CEL, protobuf, SQLite, pgx, cobra or the verbs, whose start-up cost it
// exists to avoid.
func TestClientLinksNothingHeavy(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "../../cmd/agenthooks")
		cmd.Env = append(cmd.Environ(), "GOOS="+goos)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list (%s): %v", goos, err)
		}
		for _, pkg := range strings.Fields(string(out)) {
			allowed := strings.HasPrefix(pkg, "golang.org/x/sys/") ||
				pkg == "github.com/agenthooks/agenthooks/cmd/agenthooks" ||
				pkg == "github.com/agenthooks/agenthooks/internal/client" ||
				pkg == "github.com/agenthooks/agenthooks/internal/wire" ||
				pkg == "github.com/agenthooks/agenthooks/internal/settings" ||
				pkg == "github.com/agenthooks/agenthooks/internal/filelock" ||
				pkg == "github.com/agenthooks/agenthooks/internal/proc" ||
				pkg == "github.com/agenthooks/agenthooks/internal/shellquote" ||
				pkg == "github.com/creack/pty" ||
				pkg == "golang.org/x/term"
			if !allowed {
				t.Errorf("%s: the client links %s", goos, pkg)
			}
		}
	}
}

// Nor does it link the net package, whose C resolver would make a default
// build (cgo on) dynamically linked: a millisecond of loader per step.
func TestClientIsStaticEvenWithCgo(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "../../cmd/agenthooks").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "net" || pkg == "runtime/cgo" {
			t.Errorf("the client links %s", pkg)
		}
	}
}
