package gitpush

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// runGit runs git with args in env (nil: this process's environment),
// bounded by Timeout, and returns its standard output. The git run is
// the one env's PATH finds. `git config` exits 1 when it finds nothing to list:
// that is an empty answer, not a failure.
func runGit(ctx context.Context, env []string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	env = settings.Environ(env)
	git, err := lookPathIn(env, "git")
	if err != nil {
		return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	cmd := exec.CommandContext(ctx, git, args...)
	cmd.Env = append(slices.Clip(env), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	stdout := &limitedBuffer{max: gitOutputMax}
	var stderr limitedBuffer
	stderr.max = 4 << 10
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	cmd.WaitDelay = 100 * time.Millisecond
	err = cmd.Run()
	if stdout.over {
		return nil, fmt.Errorf("git %s: more than %d bytes of output", strings.Join(args, " "), gitOutputMax)
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 && stdout.Len() == 0 && stderr.Len() == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return stdout.Bytes(), nil
}

// limitedBuffer keeps up to max bytes and notes that more came.
type limitedBuffer struct {
	bytes.Buffer
	max  int
	over bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		p = p[:max(room, 0)]
	}
	b.Buffer.Write(p)
	return len(p), nil
}

// gitExecPath is git's exec-path (`git --exec-path`), where it looks for
// git-<name> programs before PATH. It is read once per process (and
// again if PATH or GIT_EXEC_PATH change); a failure is not kept, so the
// next call tries again.
var gitExecPath = struct {
	sync.Mutex
	path, env string
}{}

func execPath(ctx context.Context, environ []string) (string, bool) {
	env := gitEnvKey(environ) // PATH and GIT_EXEC_PATH choose it
	gitExecPath.Lock()
	p, pEnv := gitExecPath.path, gitExecPath.env
	gitExecPath.Unlock()
	if p != "" && pEnv == env {
		return p, true
	}
	out, err := runGit(ctx, environ, "--exec-path")
	p = strings.TrimSpace(string(out))
	if err != nil || p == "" {
		return "", false
	}
	gitExecPath.Lock()
	gitExecPath.path, gitExecPath.env = p, env
	gitExecPath.Unlock()
	return p, true
}

// externalExists reports whether git finds a program git-<name>, which
// it runs in preference to an alias: in its exec-path or in env's PATH.
// known is false when the exec-path cannot be read.
func externalExists(ctx context.Context, env []string, name string) (exists, known bool) {
	prog := "git-" + name
	if _, err := lookPathIn(settings.Environ(env), prog); err == nil {
		return true, true
	}
	ep, ok := execPath(ctx, env)
	if !ok {
		return false, false
	}
	candidates := []string{filepath.Join(ep, prog)}
	if runtime.GOOS == "windows" {
		candidates = append(candidates, filepath.Join(ep, prog+".exe"))
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && !fi.IsDir() {
			return true, true
		}
	}
	return false, true
}

// lookPathIn finds prog as a shell would with env's PATH (and, on
// Windows, PATHEXT): the first regular file of that name, executable on
// Unix, in PATH's folders. A relative folder in PATH counts, as
// exec.LookPath's ErrDot case does for git.
func lookPathIn(env []string, prog string) (string, error) {
	if strings.ContainsRune(prog, filepath.Separator) {
		return prog, nil
	}
	getenv := settings.Getenv(env)
	exts := []string{""}
	if runtime.GOOS == "windows" {
		exts = strings.Split(strings.ToLower(cmp.Or(getenv("PATHEXT"), ".com;.exe;.bat;.cmd")), ";")
	}
	for _, dir := range filepath.SplitList(getenv("PATH")) {
		if dir == "" {
			dir = "."
		}
		for _, ext := range exts {
			p := filepath.Join(dir, prog+ext)
			fi, err := os.Stat(p)
			if err != nil || !fi.Mode().IsRegular() || runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
				continue
			}
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: %w in PATH", prog, exec.ErrNotFound)
}
