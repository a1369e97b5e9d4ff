package gitpush

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// runGit runs git with args, bounded by Timeout, and returns its
// standard output. `git config` exits 1 when it finds nothing to list:
// that is an empty answer, not a failure.
func runGit(ctx context.Context, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	stdout := &limitedBuffer{max: gitOutputMax}
	var stderr limitedBuffer
	stderr.max = 4 << 10
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	cmd.WaitDelay = 100 * time.Millisecond
	err := cmd.Run()
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

func execPath(ctx context.Context) (string, bool) {
	env := gitEnvKey() // PATH and GIT_EXEC_PATH choose it
	gitExecPath.Lock()
	p, pEnv := gitExecPath.path, gitExecPath.env
	gitExecPath.Unlock()
	if p != "" && pEnv == env {
		return p, true
	}
	out, err := runGit(ctx, "--exec-path")
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
// it runs in preference to an alias: in its exec-path or in PATH. known
// is false when the exec-path cannot be read.
func externalExists(ctx context.Context, name string) (exists, known bool) {
	prog := "git-" + name
	if _, err := exec.LookPath(prog); err == nil || errors.Is(err, exec.ErrDot) {
		return true, true
	}
	ep, ok := execPath(ctx)
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
