//go:build windows

package front

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

var interruptSignals = []os.Signal{os.Interrupt}

// handOver runs the full binary with this process's streams and passes
// its exit code on: Windows has no exec.
func handOver(bin string, args []string) int {
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = fullEnv()
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintf(os.Stderr, "agenthooks: run %s: %v\n", bin, err)
		return 127
	}
	return 0
}

// start does nothing: there is no resident engine on Windows yet.
func start(string, string, []string) {}
