//go:build unix

package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// directExec is true where a command without shell syntax may skip the shell.
const directExec = true

// directCommand prepares an exec of words without a shell: the program path
// found as sh would find it, and the environment sh would have passed on.
// ok is false when the program cannot be found; the caller then lets the
// shell find (and report) it.
func directCommand(words []string, dir string, env []string) (path string, childEnv []string, ok bool) {
	path, ok = lookPath(words[0], dir, env)
	if !ok {
		return "", nil, false
	}
	return path, withPWD(env, dir), true
}

// lookPath resolves a command name the way sh does: a name with a slash is a
// path (relative to dir, the hook's working directory); any other name is
// searched in the PATH of env, an empty element meaning dir itself. The
// caller's own PATH plays no part: the hook's environment decides.
func lookPath(name, dir string, env []string) (string, bool) {
	if strings.Contains(name, "/") {
		return inDir(dir, name), true
	}
	pathVar, ok := lookupEnv(env, "PATH")
	if !ok {
		// sh has a built-in default search path; let it apply it.
		return "", false
	}
	for _, elem := range filepath.SplitList(pathVar) {
		if elem == "" {
			elem = "."
		}
		cand := inDir(dir, elem+"/"+name)
		if isExecutable(cand) {
			return cand, true
		}
	}
	return "", false
}

// inDir makes a relative path relative to dir (already absolute, or "" for
// the caller's working directory).
func inDir(dir, p string) string {
	if dir == "" || filepath.IsAbs(p) {
		return p
	}
	return dir + "/" + p
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// withPWD returns the environment sh would pass on: one entry per name (the
// last one wins, as when sh imports it; entries without "=" are dropped),
// and PWD kept when it already names the working directory, else set to the
// physical working directory. Without this a directly exec'd hook would see
// the host's PWD, or two of them.
func withPWD(env []string, dir string) []string {
	wd := dir
	if wd == "" {
		wd, _ = os.Getwd()
	}
	pwd, ok := lookupEnv(env, "PWD")
	if !ok || !filepath.IsAbs(pwd) || !sameFile(pwd, wd) {
		pwd = wd
		if phys, err := filepath.EvalSymlinks(wd); err == nil {
			pwd = phys
		}
	}
	out := make([]string, 0, len(env)+1)
	seen := make(map[string]bool, len(env))
	for i := len(env) - 1; i >= 0; i-- {
		name, _, found := strings.Cut(env[i], "=")
		if !found || name == "" || name == "PWD" || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, env[i])
	}
	slices.Reverse(out)
	if pwd != "" {
		out = append(out, "PWD="+pwd)
	}
	return out
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
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
