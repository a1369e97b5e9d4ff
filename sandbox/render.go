package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
)

// SystemReadPaths are what a command may read under readBoundary
// "workspace" besides the workspace and the granted paths: the folders
// programs, libraries, certificates and the system's configuration live
// in, so that a shell, git or a compiler still start.
var SystemReadPaths = []string{
	"/bin", "/sbin", "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
	"/nix", "/proc", "/sys", "/dev", "/run", "/var/lib", "/snap",
	// macOS
	"/System", "/Library", "/private/etc", "/private/var/db", "/Applications",
}

// devices are the device files every command may write (and use ioctl on,
// for terminals): the null sink, randomness, the terminal.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx", "/dev/pts"}

// fsRules is the filesystem part of a policy as concrete paths.
type fsRules struct {
	// readAll: every file may be read (readBoundary "system").
	readAll bool
	read    []string
	write   []string
	devices []string
}

// env is what rendering needs of the machine.
type env struct {
	home   string
	tmp    []string
	caches []string
}

func currentEnv() env {
	home, _ := os.UserHomeDir()
	e := env{home: home}
	for _, t := range []string{os.TempDir(), "/tmp", "/var/tmp", "/dev/shm"} {
		if runtime.GOOS == "windows" {
			break
		}
		if !slices.Contains(e.tmp, t) {
			e.tmp = append(e.tmp, t)
		}
	}
	if home != "" {
		cache, err := os.UserCacheDir()
		if err == nil {
			e.caches = append(e.caches, cache)
		}
		for _, c := range []string{".npm", ".cargo/registry", ".cargo/git", "go/pkg/mod", ".m2/repository", ".gradle/caches", ".yarn", ".pnpm-store"} {
			e.caches = append(e.caches, filepath.Join(home, c))
		}
	}
	return e
}

// files is the policy's filesystem rules on this machine.
func (p Policy) files(e env) fsRules {
	r := fsRules{readAll: p.ReadBoundary != ReadWorkspace, devices: devices}
	if p.Type == WorkspaceReadwrite {
		r.write = append(r.write, p.Roots...)
		for _, g := range p.ReadwritePaths {
			r.write = append(r.write, g.Path)
		}
	}
	if !p.DisableTmpWrite {
		r.write = append(r.write, e.tmp...)
	}
	if p.EnableSharedBuildCache {
		r.write = append(r.write, e.caches...)
	}
	if !r.readAll {
		r.read = append(r.read, p.Roots...)
		for _, g := range append(slices.Clone(p.ReadonlyPaths), p.ReadwritePaths...) {
			r.read = append(r.read, g.Path)
		}
		r.read = append(r.read, SystemReadPaths...)
		if !p.DisableTmpWrite {
			// What a command may write it may read back.
			r.read = append(r.read, e.tmp...)
		}
	}
	return r
}
