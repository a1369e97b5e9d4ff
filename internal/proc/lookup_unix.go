//go:build unix

package proc

import (
	"os"
	"path/filepath"
	"strings"
)

// directExec is true where a command without shell syntax may skip the shell.
const directExec = true

// directCommand finds the program of an exec of words without a shell, as
// sh would find it. ok is false when it cannot be found; the caller then
// lets the shell find (and report) it.
func directCommand(words []string, dir string, env []string) (path string, ok bool) {
	return lookPath(words[0], dir, env)
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

// envKey is how the system compares variable names: exactly, on unix.
func envKey(name string) string { return name }

// pwdVar is set for the child to the working directory, as sh does.
const pwdVar = "PWD"
