package sandbox

import (
	"path/filepath"
	"strings"
)

// WriteGrant returns the folder of p's write set on this machine that
// holds path, or "" when a command inside p may not write it. doctor
// uses it to warn when agenthooks' own folders (trust store, config,
// state, the engine's) lie where commands may write: a command could then
// trust its own workspace, or loosen its own sandbox.
func (p Policy) WriteGrant(path string) string {
	if !p.Enabled() {
		return ""
	}
	target := resolve(path)
	for _, g := range p.files(currentEnv()).write {
		if within(target, resolve(g)) {
			return g
		}
	}
	return ""
}

// resolve is path absolute, with its links resolved as far as it exists.
func resolve(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		if dir == filepath.Dir(dir) {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// within reports whether path is dir or below it.
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}
