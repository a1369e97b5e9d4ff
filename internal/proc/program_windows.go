//go:build windows

package proc

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// findProgram finds the program of Spec.Argv as Windows would: a name with
// a path separator or a drive is a path (relative to dir), any other is
// searched in env's PATH (not in the current folder); either way without
// an extension it takes the first of PATHEXT's that names a file.
func findProgram(name, dir string, env []string) (string, error) {
	if strings.ContainsAny(name, `/\:`) {
		p := name
		if dir != "" && !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("proc: %w", err)
		}
		return path, nil
	}
	var pathVar string
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && envKey(k) == "PATH" {
			pathVar = v
		}
	}
	for _, elem := range filepath.SplitList(pathVar) {
		if elem == "" {
			continue
		}
		if path, err := exec.LookPath(filepath.Join(elem, name)); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("proc: %s: not found in PATH", name)
}
