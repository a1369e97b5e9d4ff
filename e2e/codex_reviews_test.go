//go:build unix

package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCodexReviews pins what install --trust records against the real
// Codex: its app server's hooks/list must report every hook agenthooks
// wrote as trusted (the review hash Codex computes matches the one
// install wrote, for every event, SubagentStop and PreCompact too, which
// no session here fires), in a workspace reached through a link (Codex
// sees it by both paths), behind a group of the user's own, which stays
// unreviewed: install trusts only its own hooks.
func TestCodexReviews(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	codex := agent(t, "codex")
	home := filepath.Join(w.Home, ".codex")
	w.Setenv("CODEX_HOME", home)
	mustMkdir(t, home)
	if out, err := exec.Command("git", "init", "-q", w.Dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	link := filepath.Join(filepath.Dir(w.Dir), "link")
	if err := os.Symlink(w.Dir, link); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(w.Dir, ".codex", "hooks.json"),
		`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh"}]}]}}`+"\n", 0o644)
	out := w.agenthooks("install", "--agent", "codex", "--scope", "project", "--workspace", link, "--trust")
	t.Logf("install:\n%s", out)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, cwd := range []string{link, w.Dir} {
		var list struct {
			Data []struct {
				Cwd   string `json:"cwd"`
				Hooks []struct {
					Key, Command, TrustStatus, EventName string
				} `json:"hooks"`
			} `json:"data"`
		}
		if err := codexRPC(ctx, w, codex, "hooks/list", map[string]any{"cwds": []string{cwd}}, &list); err != nil {
			t.Fatal(err)
		}
		ours, events := 0, map[string]bool{}
		for _, d := range list.Data {
			for _, h := range d.Hooks {
				switch {
				case strings.Contains(h.Command, "run --from codex"):
					ours++
					events[h.EventName] = true
					if h.TrustStatus != "trusted" {
						t.Errorf("from %s: %s is %s, want trusted", cwd, h.Key, h.TrustStatus)
					}
					if h.EventName == "preToolUse" && !strings.HasSuffix(h.Key, ":pre_tool_use:1:0") {
						t.Errorf("from %s: agenthooks' PreToolUse hook is %s, want the second group", cwd, h.Key)
					}
				case h.Command == "./mine.sh" && h.TrustStatus == "trusted":
					t.Errorf("from %s: the user's own hook %s was marked reviewed", cwd, h.Key)
				}
			}
		}
		if ours != 8 || !events["sessionEnd"] || !events["subagentStop"] || !events["preCompact"] {
			t.Errorf("from %s: %d agenthooks hooks (%v), want the 8 install wrote:\n%+v", cwd, ours, events, list)
		}
	}
}

// codexRPC asks Codex's app server (JSON-RPC over stdio, one message a
// line) one question after the handshake, and decodes the result.
func codexRPC(ctx context.Context, w *workspace, codex, method string, params, result any) error {
	cmd := exec.CommandContext(ctx, codex, "app-server")
	cmd.Dir = w.Dir
	cmd.Env = w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("codex app-server: %w", err)
	}
	defer func() {
		_ = stdin.Close()
		_ = cmd.Wait()
	}()
	send := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = stdin.Write(append(b, '\n'))
		return err
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 16<<20)
	answer := func(id int) (json.RawMessage, error) {
		for lines.Scan() {
			var m struct {
				ID     *int            `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(lines.Bytes(), &m) != nil || m.ID == nil || *m.ID != id {
				continue // notifications
			}
			if m.Error != nil {
				return nil, fmt.Errorf("codex app-server: %s", m.Error)
			}
			return m.Result, nil
		}
		return nil, fmt.Errorf("codex app-server ended without answering (%v): %s", lines.Err(), stderr.String())
	}
	if err := send(map[string]any{"method": "initialize", "id": 1, "params": map[string]any{
		"clientInfo": map[string]any{"name": "agenthooks-e2e", "version": "1"}}}); err != nil {
		return err
	}
	if _, err := answer(1); err != nil {
		return err
	}
	if err := send(map[string]any{"method": "initialized"}); err != nil {
		return err
	}
	if err := send(map[string]any{"method": method, "id": 2, "params": params}); err != nil {
		return err
	}
	res, err := answer(2)
	if err != nil {
		return err
	}
	return json.Unmarshal(res, result)
}
