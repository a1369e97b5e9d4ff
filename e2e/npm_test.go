//go:build unix

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/needs"
)

// The agents, each at the version these tests verified: a version bump
// is one line here, together with whatever the tests (and
// install) learn about the new one.
var pinned = []npmPackage{
	{"@google/gemini-cli", "0.61.0"},
	{"opencode-ai", "1.18.33"},
	{"@openai/codex", "0.169.0"},
	{"@github/copilot", "1.0.102"},
	{"@anthropic-ai/claude-code", "2.1.332"},
}

// npmPackage is a package of the npm registry at one version.
type npmPackage struct{ name, version string }

func (p npmPackage) String() string { return p.name + "@" + p.version }

// pinnedVersion is the pinned version of pkg, for the tests' reports.
func pinnedVersion(pkg string) string {
	for _, p := range pinned {
		if p.name == pkg {
			return p.version
		}
	}
	return "?"
}

// agentsDir is where the agents are installed: $AGENTHOOKS_E2E_AGENTS, else
// agenthooks-e2e in the user's cache directory.
func agentsDir() (string, error) {
	if d := os.Getenv("AGENTHOOKS_E2E_AGENTS"); d != "" {
		return filepath.Abs(d)
	}
	c, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "agenthooks-e2e"), nil
}

var (
	agentsOnce sync.Once
	agentsRoot string
	agentsErr  string
	// agentsMissing: Node.js or npm is not installed (not a failed install).
	agentsMissing bool
	agentsLog     []byte
)

// agent returns the path of an installed agent's command ("gemini",
// "opencode", "codex", "copilot", "claude"), installing the pinned agents
// from the npm registry into agentsDir the first time (and again when a
// pin changed). Without Node.js
// 20 and npm the test fails (CI has them), unless -short leaves it out.
func agent(t *testing.T, command string) string {
	t.Helper()
	needs.Short(t, "the end-to-end tests: built binaries, and the real agents from npm")
	agentsOnce.Do(func() {
		agentsRoot, agentsLog, agentsErr = installAgents()
		agentsMissing = strings.Contains(agentsErr, "is not installed") || strings.Contains(agentsErr, "is too old")
	})
	if len(agentsLog) > 0 {
		t.Logf("%s", agentsLog)
	}
	if agentsErr != "" {
		if agentsMissing {
			needs.Missing(t, agentsErr)
		}
		t.Fatal(agentsErr)
	}
	bin := filepath.Join(agentsRoot, "node_modules", ".bin", command)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is not installed in %s: %v", command, agentsRoot, err)
	}
	return bin
}

// installAgents installs the pinned agents into agentsDir unless they are
// there, and returns the directory, npm's output and what went wrong.
func installAgents() (dir string, log []byte, problem string) {
	dir, err := agentsDir()
	if err != nil {
		return "", nil, "agents directory: " + err.Error()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err.Error()
	}
	// One installer at a time: test processes of several checkouts may
	// share the directory.
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", nil, err.Error()
	}
	defer lock.Close() // and unlocks
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", nil, "lock " + lock.Name() + ": " + err.Error()
	}

	node, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "", nil, "node is not installed: the end-to-end tests run Gemini CLI with it and install the agents with npm " +
			"(Node.js >= 20 with npm), or run go test -short to leave them out"
	}
	if major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(strings.TrimSpace(string(node)), "v"), ".", 2)[0]); major < 20 {
		return "", nil, "node " + strings.TrimSpace(string(node)) + " is too old: the agents need Node.js >= 20"
	}
	var want []string
	for _, p := range pinned {
		if !installed(dir, p.name, p.version) {
			want = append(want, p.String())
		}
	}
	if len(want) == 0 {
		return dir, nil, ""
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", nil, "npm is not installed: the end-to-end tests install " + strings.Join(want, ", ") +
			" with it (Node.js >= 20 with npm), or run go test -short to leave them out"
	}
	start := time.Now()
	// Every pinned package in one install, so npm keeps them all (an
	// install of some removes others from the prefix's package.json).
	args := []string{"install", "--no-audit", "--no-fund", "--prefix", dir}
	for _, p := range pinned {
		args = append(args, p.String())
	}
	cmd := exec.Command(npm, args...)
	log, err = cmd.CombinedOutput()
	if err != nil {
		return "", log, "npm install: " + err.Error()
	}
	return dir, append(log, "npm install took "+time.Since(start).Round(time.Second).String()+"\n"...), ""
}

// installed reports whether version of pkg is in dir's node_modules.
func installed(dir, pkg, version string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg, "package.json"))
	if err != nil {
		return false
	}
	var p struct {
		Version string `json:"version"`
	}
	return json.Unmarshal(b, &p) == nil && p.Version == version
}
