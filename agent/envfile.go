package agent

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/internal/lazyre"
	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// envName is what a shell accepts after `export`.
var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// EnvFileLines renders a session env as the `export K=V` lines Claude Code
// and Codex source into later Bash calls: sorted by name, each value in
// single quotes so that no character in it is interpreted. Names a shell
// cannot export come back in skipped.
func EnvFileLines(env map[string]string) (lines []byte, skipped []string) {
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, k := range names {
		if !envName().MatchString(k) {
			skipped = append(skipped, k)
			continue
		}
		fmt.Fprintf(&b, "export %s=%s\n", k, shellquote.POSIXAlways(env[k]))
	}
	return []byte(b.String()), skipped
}

// AppendEnvFile appends the session env to the agent's env file.
func AppendEnvFile(path string, env map[string]string) (skipped []string, err error) {
	lines, skipped := EnvFileLines(env)
	if len(lines) == 0 {
		return skipped, nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return skipped, fmt.Errorf("env file: %w", err)
	}
	if _, err := f.Write(lines); err != nil {
		f.Close()
		return skipped, fmt.Errorf("env file %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return skipped, fmt.Errorf("env file %s: %w", path, err)
	}
	return skipped, nil
}
