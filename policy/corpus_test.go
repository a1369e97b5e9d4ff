package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/needs"
	"github.com/agenthooks/agenthooks/runner"
)

var examples = []string{"git", "network", "secrets", "rm"}

func examplePath(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "examples", "policies", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func loadExample(t testing.TB, name string) (*Policy, []Case) {
	t.Helper()
	p, err := Load(examplePath(t, name+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := LoadCases(examplePath(t, name+".cases.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return p, cases
}

// TestExampleCorpus checks every example's cases directly.
func TestExampleCorpus(t *testing.T) {
	for _, name := range examples {
		p, cases := loadExample(t, name)
		for _, r := range p.RunCases(context.Background(), cases) {
			if !r.Pass() {
				got := "none"
				if r.Got.Rule != nil {
					got = string(r.Got.Decision) + " by " + r.Got.Rule.Name
				}
				t.Errorf("%s.cases.yaml:%d %s: want %q (rule %q), got %s, err %v", name, r.Line, r.Name, r.Expect, r.Rule, got, r.Err)
			}
		}
	}
}

// TestGitBypassCorpus holds git.yaml's corpus to its promise: at least
// 40 spellings of a push to a protected branch, all denied, and at least
// 40 harmless commands, all passing.
func TestGitBypassCorpus(t *testing.T) {
	_, cases := loadExample(t, "git")
	deny, pass := 0, 0
	for _, c := range cases {
		switch {
		case strings.HasPrefix(c.Name, "deny: ") && c.Expect == event.Deny:
			deny++
		case strings.HasPrefix(c.Name, "pass: ") && c.Expect == event.NoOpinion:
			pass++
		}
	}
	if deny < 40 || pass < 40 {
		t.Errorf("git.cases.yaml has %d bypass spellings and %d harmless commands; want at least 40 of each", deny, pass)
	}
}

// engineFor loads an engine whose user hooks run the policy for every
// step it can decide, with the given command runner.
func engineFor(t testing.TB, policyFile string, r runner.Runner, env []string) *engine.Engine {
	t.Helper()
	home := t.TempDir()
	hooks := map[string][]map[string]any{}
	for _, s := range event.Steps {
		if decidable(s) {
			hooks[string(s)] = []map[string]any{{"command": "agenthooks policy " + filepath.ToSlash(policyFile)}}
		}
	}
	b, err := json.Marshal(map[string]any{"version": 1, "hooks": hooks})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".cursor", "hooks.json"), string(b))
	e, err := engine.Load(engine.Options{
		Locations: config.Locations{EnterpriseFile: filepath.Join(home, "none.json"), Home: home},
		Runners:   map[string]runner.Runner{config.TypeCommand: r},
		Env:       env,
	})
	if err != nil {
		t.Fatal(err)
	}
	if p := e.Problems(); len(p) > 0 {
		t.Fatalf("hooks file: %v", p)
	}
	return e
}

// runCorpus runs every example case through an engine and compares the
// merged decision with the expectation.
func runCorpus(t *testing.T, mk func(policyFile string) *engine.Engine) {
	for _, name := range examples {
		_, cases := loadExample(t, name)
		e := mk(examplePath(t, name+".yaml"))
		for _, c := range cases {
			d, err := e.Run(context.Background(), c.Step, json.RawMessage(c.Payload()))
			if err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			failed := len(d.Hooks) != 1 || d.Hooks[0].Result.Failure != runner.OK
			if failed || d.Permission != c.Expect && !(c.Step == event.BeforeSubmitPrompt && d.Blocked() == (c.Expect == event.Deny)) {
				var detail []string
				for _, o := range d.Hooks {
					detail = append(detail, fmt.Sprintf("%s %s %s", o.Said, o.Result.Failure, o.Result.Detail))
				}
				t.Errorf("%s.cases.yaml:%d %s: engine decided %q, want %q (%v)", name, c.Line, c.Name, d.Permission, c.Expect, detail)
			}
		}
	}
}

// TestCorpusThroughEngine: the in-process runner, inside the engine.
func TestCorpusThroughEngine(t *testing.T) {
	fb := &spy{}
	runCorpus(t, func(f string) *engine.Engine {
		return engineFor(t, f, Runner{Fallback: fb, Cache: &Cache{}}, nil)
	})
	if fb.calls.Load() != 0 {
		t.Errorf("the process runner ran %d times", fb.calls.Load())
	}
}

// TestCorpusThroughProcess: the same hooks run as processes of the real
// agenthooks binary, as Cursor runs them, decide the same.
func TestCorpusThroughProcess(t *testing.T) {
	needs.Short(t, "the policy corpus through a built agenthooks binary")
	bin := buildAgenthooks(t)
	env := append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	runCorpus(t, func(f string) *engine.Engine {
		return engineFor(t, f, runner.Command{}, env)
	})
}

// The agenthooks binary, built once per test run into a temporary folder
// that TestMain removes.
var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

func buildAgenthooks(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "agenthooks-policy-test-")
		if binErr != nil {
			return
		}
		name := "agenthooks"
		if runtime.GOOS == "windows" {
			name += ".exe"
		}
		binPath = filepath.Join(binDir, name)
		cmd := exec.Command("go", "build", "-o", binPath, "../cmd/agenthooks-engine")
		out, err := cmd.CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}
