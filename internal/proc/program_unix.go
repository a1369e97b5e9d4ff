//go:build unix

package proc

import "fmt"

// findProgram finds the program of Spec.Argv as sh would find a command:
// a name with a slash is a path (relative to dir), any other is searched
// in env's PATH.
func findProgram(name, dir string, env []string) (string, error) {
	if path, ok := lookPath(name, dir, env); ok {
		return path, nil
	}
	return "", fmt.Errorf("proc: %s: not found in PATH", name)
}
