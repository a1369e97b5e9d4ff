package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// childEnv returns the environment the child gets: one entry per name,
// the last one winning (callers append overrides), entries without "="
// dropped, and on unix PWD naming the working directory. Without it a
// child would see the host's stale PWD, or two values of one variable, of
// which execve's getenv picks the first. The PWD is the logical path, as
// a shell that inherits a valid PWD keeps it: resolving symlinks would
// cost a system call per path element on every spawn.
func childEnv(env []string, dir string) []string {
	out := make([]string, 0, len(env)+1)
	seen := make(map[string]bool, len(env))
	for i := len(env) - 1; i >= 0; i-- {
		name, _, found := strings.Cut(env[i], "=")
		if !found || name == "" {
			continue
		}
		k := envKey(name)
		if seen[k] || (pwdVar != "" && k == pwdVar) {
			continue
		}
		seen[k] = true
		out = append(out, env[i])
	}
	slices.Reverse(out)
	if pwdVar != "" {
		pwd := dir
		if pwd == "" {
			pwd, _ = lookupEnv(env, pwdVar)
			if !filepath.IsAbs(pwd) {
				pwd, _ = os.Getwd()
			}
		}
		if pwd != "" {
			out = append(out, pwdVar+"="+pwd)
		}
	}
	return out
}

// lookupEnv finds key in env; the last occurrence wins, as with os/exec.
func lookupEnv(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v, true
		}
	}
	return "", false
}
