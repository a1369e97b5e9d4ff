//go:build unix

// Package e2e drives real coding agents, installed from the npm registry,
// against fake model servers (internal/fakemodel) in a workspace whose
// Cursor hooks deny git push: each agent, wired to agenthooks as its
// install verb does it, must keep the push from running, tell its model
// the hook's reason, and still run an allowed command.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/internal/fakemodel"
)

func TestMain(m *testing.M) {
	// The agents' temporary files live in a folder of this run's (each
	// workspace stops its own engines).
	tmp, err := os.MkdirTemp("", "agenthooks-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", tmp)
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.RemoveAll(tmp)
	os.Exit(code)
}

// agentTimeout bounds one agent session.
const agentTimeout = 3 * time.Minute

// prompt is what the user asks; the fake model's script does the rest.
const prompt = "Push main to origin, then write ok to allowed.txt."

// allowedCommand is the command the script runs after the denied push.
const allowedCommand = "echo ok > allowed.txt"

func TestGeminiProject(t *testing.T) { testGemini(t, "project") }
func TestGeminiUser(t *testing.T)    { testGemini(t, "user") }

// testGemini runs the push case with agenthooks installed for Gemini CLI
// at scope.
func testGemini(t *testing.T, scope string) {
	t.Parallel()
	w := newWorkspace(t)
	out, model, err := runGeminiPush(t, w, scope)
	defer model.Close()
	check(t, w, out, err, model, []string{
		"sessionStart", "beforeSubmitPrompt",
		"preToolUse", "beforeShellExecution git push origin main",
		"preToolUse", "beforeShellExecution " + allowedCommand,
		"postToolUse", "afterShellExecution " + allowedCommand,
		"stop", "sessionEnd",
	})
}

// runGeminiPush runs real Gemini CLI in w against a model that asks for
// git push, then for the allowed command.
func runGeminiPush(t *testing.T, w *workspace, scope string) (string, *fakemodel.Gemini, error) {
	t.Helper()
	model := fakemodel.NewGemini(fakemodel.Script{Steps: []fakemodel.Step{
		fakemodel.Call("run_shell_command", map[string]any{"command": "git push origin main", "description": "Push main."}),
		fakemodel.Call("run_shell_command", map[string]any{"command": allowedCommand, "description": "Write allowed.txt."}),
		fakemodel.Say("The push was blocked by policy; allowed.txt is written."),
	}})
	gemini := geminiAgent(t, w, model.URL(), scope)
	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	start := time.Now()
	out, err := w.run(ctx, gemini, "--prompt", prompt, "--approval-mode", "yolo", "--model", "gemini-2.5-flash")
	t.Logf("gemini ran %s", time.Since(start).Round(time.Millisecond))
	return out, model, err
}

func TestOpenCodeProject(t *testing.T) { testOpenCode(t, "project") }
func TestOpenCodeUser(t *testing.T)    { testOpenCode(t, "user") }

// testOpenCode runs the push case with agenthooks installed for OpenCode
// at scope.
func testOpenCode(t *testing.T, scope string) {
	t.Parallel()
	w := newWorkspace(t)
	model := fakemodel.NewOpenAI(fakemodel.Script{Steps: []fakemodel.Step{
		fakemodel.Call("bash", map[string]any{"command": "git push origin main", "description": "Push main"}),
		fakemodel.Call("bash", map[string]any{"command": allowedCommand, "description": "Write allowed.txt"}),
		fakemodel.Say("The push was blocked by policy; allowed.txt is written."),
	}})
	defer model.Close()
	opencode := opencodeAgent(t, w, model.URL(), scope)

	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	start := time.Now()
	out, err := w.run(ctx, opencode, "run", "--model", "fake/fake", prompt)
	t.Logf("opencode ran %s", time.Since(start).Round(time.Millisecond))
	// `opencode run` deletes no session, so there is no sessionEnd.
	check(t, w, out, err, model, []string{
		"sessionStart", "beforeSubmitPrompt",
		"preToolUse", "beforeShellExecution git push origin main",
		"preToolUse", "beforeShellExecution " + allowedCommand,
		"postToolUse", "afterShellExecution " + allowedCommand,
		"stop",
	})
}

// followup is what the stop hook asks for in the follow-up tests.
const followup = "AGENTHOOKS-E2E-FOLLOWUP-3K9 check the result once more"

// TestGeminiStopFollowup: a stop hook's follow-up reaches the model as the
// next prompt (Gemini CLI's AfterAgent "deny" retry), once (loop_limit 1).
func TestGeminiStopFollowup(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	w.Setenv("E2E_FOLLOWUP", followup)
	model := fakemodel.NewGemini(fakemodel.Script{Done: "Nothing to do."})
	defer model.Close()
	gemini := geminiAgent(t, w, model.URL(), "project")

	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	out, err := w.run(ctx, gemini, "--prompt", "Say hello.", "--approval-mode", "yolo", "--model", "gemini-2.5-flash")
	checkFollowup(t, w, out, err, model)
}

// TestOpenCodeStopFollowup: the same for OpenCode, whose plugin sends the
// follow-up as a prompt when the session goes idle. That needs an OpenCode
// that keeps running (`opencode run` exits at idle), so this drives
// `opencode serve` through its HTTP API.
func TestOpenCodeStopFollowup(t *testing.T) {
	t.Parallel()
	w := newWorkspace(t)
	w.Setenv("E2E_FOLLOWUP", followup)
	model := fakemodel.NewOpenAI(fakemodel.Script{Done: "Nothing to do."})
	defer model.Close()
	opencode := opencodeAgent(t, w, model.URL(), "project")

	ctx, cancel := context.WithTimeout(context.Background(), agentTimeout)
	defer cancel()
	cmd, out, err := w.start(ctx, opencode, "serve", "--hostname", "127.0.0.1", "--port", "0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Cancel()
		_ = cmd.Wait()
	}()
	server := ""
	for server == "" && ctx.Err() == nil {
		if m := listening.FindStringSubmatch(out.String()); m != nil {
			server = m[1]
		}
		time.Sleep(100 * time.Millisecond)
	}
	var session struct{ ID string }
	if err := postJSON(ctx, server+"/session", `{}`, &session); err != nil || session.ID == "" {
		t.Fatalf("create a session: %v (%+v)\n%s", err, session, out)
	}
	msg := `{"parts":[{"type":"text","text":"Say hello."}],"model":{"providerID":"fake","modelID":"fake"}}`
	if err := postJSON(ctx, server+"/session/"+session.ID+"/message", msg, nil); err != nil {
		t.Fatalf("send a message: %v\n%s", err, out)
	}
	// The follow-up is sent after the session went idle; give it time.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && len(model.Find("", followup)) == 0; {
		time.Sleep(100 * time.Millisecond)
	}
	checkFollowup(t, w, out.String(), nil, model)
}

var listening = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)

// postJSON posts body to url and decodes the answer into v (unless nil).
func postJSON(ctx context.Context, url, body string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", url, resp.Status, b)
	}
	if v == nil {
		return nil
	}
	return json.Unmarshal(b, v)
}

// checkFollowup asserts that the follow-up reached the model, and that
// the stop hook ran twice: the first stop, and the stop after the
// follow-up, which loop_limit 1 lets end the session.
func checkFollowup(t *testing.T, w *workspace, out string, err error, m model) {
	t.Helper()
	defer func() {
		if t.Failed() || os.Getenv("AGENTHOOKS_E2E_VERBOSE") != "" {
			logSession(t, w, out, m)
		}
	}()
	if err != nil {
		t.Errorf("agent: %v", err)
	}
	if len(m.Find("", followup)) == 0 {
		t.Errorf("no request to the model carries the stop hook's follow-up")
	}
	for _, s := range waitSteps(w, []string{"sessionStart", "stop", "stop"}) {
		t.Errorf("no hook ran for %s", s)
	}
	stops := 0
	for _, s := range w.steps() {
		if s == "stop" {
			stops++
		}
	}
	if stops > 2 {
		t.Errorf("%d stops: the follow-up did not stop at loop_limit 1", stops)
	}
}

// geminiAgent installs agenthooks for Gemini CLI in w at scope, configures
// Gemini CLI for the fake Gemini API at url, and returns its command.
func geminiAgent(t *testing.T, w *workspace, url, scope string) string {
	t.Helper()
	gemini := agent(t, "gemini")
	// Gemini CLI's own settings on this machine: an API key (for the fake
	// API), no usage statistics nor update checks.
	writeJSON(t, filepath.Join(w.Home, ".gemini", "settings.json"), map[string]any{
		"security": map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"privacy":  map[string]any{"usageStatisticsEnabled": false},
		"general":  map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
	})
	// The project trusted by install --trust, in Gemini CLI's
	// trustedFolders.json: Gemini runs no settings hooks at all in an
	// untrusted folder, and in headless mode refuses to start in one.
	if scope == "user" {
		// A user-level install trusts no folder it is not told.
		wireAgent(t, w, "gemini", scope, "--trust", "--workspace", w.Dir)
	} else {
		wireAgent(t, w, "gemini", scope, "--trust")
	}
	w.Setenv("GEMINI_API_KEY", "e2e-fake-key")
	w.Setenv("GOOGLE_GEMINI_BASE_URL", url)
	return gemini
}

// opencodeAgent installs agenthooks for OpenCode in w at scope, configures
// OpenCode for the fake OpenAI-compatible API at url, and returns its
// command.
func opencodeAgent(t *testing.T, w *workspace, url, scope string) string {
	t.Helper()
	opencode := agent(t, "opencode")
	wireAgent(t, w, "opencode", scope)
	// OpenCode's own configuration on this machine: the fake model as an
	// OpenAI-compatible provider (the provider package is built into
	// OpenCode), no models.dev, no updates, no sharing.
	writeJSON(t, filepath.Join(w.Home, ".config", "opencode", "opencode.json"), map[string]any{
		"$schema":     "https://opencode.ai/config.json",
		"model":       "fake/fake",
		"small_model": "fake/fake",
		"autoupdate":  false,
		"share":       "disabled",
		"provider": map[string]any{"fake": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "Fake",
			"options": map[string]any{"baseURL": url + "/v1", "apiKey": "e2e-fake-key"},
			"models":  map[string]any{"fake": map[string]any{"name": "Fake", "tool_call": true}},
		}},
	})
	w.Setenv("OPENCODE_DISABLE_MODELS_FETCH", "1")
	w.Setenv("OPENCODE_DISABLE_AUTOUPDATE", "1")
	w.Setenv("OPENCODE_DISABLE_LSP_DOWNLOAD", "1")
	return opencode
}

// model is a fake model server's record.
type model interface {
	Requests() []fakemodel.Request
	Find(path, text string) []fakemodel.Request
	ToolResults() []string
}

// check asserts what every agent must have done: run the hooks of the
// steps in want (each as often as it is listed, in any order; a shell
// step with its command), not pushed, told the model the hook's reason in
// the push's tool result, passed the sessionStart hook's env to the later
// hooks, and run the allowed command.
func check(t *testing.T, w *workspace, out string, err error, m model, want []string) {
	t.Helper()
	defer func() {
		if t.Failed() || os.Getenv("AGENTHOOKS_E2E_VERBOSE") != "" {
			logSession(t, w, out, m)
		}
	}()
	if err != nil {
		t.Errorf("agent: %v", err)
	}
	for _, s := range waitSteps(w, want) {
		t.Errorf("no hook ran for %s", s)
	}
	for _, c := range w.gitCalls() {
		if strings.HasPrefix(c, "push") {
			t.Errorf("git push ran despite the hook: git %s", c)
		}
	}
	results := m.ToolResults()
	if len(results) == 0 || !strings.Contains(results[0], denyMarker) {
		t.Errorf("the push's tool result does not carry the hook's deny reason (%s)", denyMarker)
	}
	if env := w.sessionEnv(); !w.noSessionState && (len(env) == 0 || env[0] != sessionMark) {
		t.Errorf("no hook after sessionStart saw the env it set (%s): %q", sessionMark, env)
	}
	got, rerr := os.ReadFile(filepath.Join(w.Dir, "allowed.txt"))
	if rerr != nil || strings.TrimSpace(string(got)) != "ok" {
		t.Errorf("the allowed command did not run: allowed.txt: %q, %v", got, rerr)
	}
}

// waitSteps waits for the hooks of the steps in want to have run, and
// returns those that did not. Some hooks run after the agent's last word
// (OpenCode's session.idle is not awaited), so they get a moment.
func waitSteps(w *workspace, want []string) []string {
	deadline := time.Now().Add(10 * time.Second)
	for {
		missing := missingSteps(w.steps(), want)
		if len(missing) == 0 || time.Now().After(deadline) {
			return missing
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// logSession logs what happened: the agent's output, the requests to the
// model, the hooks' payloads, the git calls.
func logSession(t *testing.T, w *workspace, out string, m model) {
	t.Helper()
	t.Logf("agent output:\n%s", out)
	for i, r := range m.Requests() {
		t.Logf("model request %d: %s %s\n%.4000s", i, r.Method, r.Path, r.Body)
	}
	t.Logf("tool results:\n%s", strings.Join(m.ToolResults(), "\n"))
	t.Logf("hook payloads:\n%s", strings.Join(w.hookPayloads(), "\n"))
	t.Logf("steps:\n%s", strings.Join(w.steps(), "\n"))
	t.Logf("git calls:\n%s", strings.Join(w.gitCalls(), "\n"))
}

// missingSteps is want less steps, counting repeats.
func missingSteps(steps, want []string) []string {
	have := map[string]int{}
	for _, s := range steps {
		have[s]++
	}
	var missing []string
	for _, s := range want {
		if have[s] == 0 {
			missing = append(missing, s)
			continue
		}
		have[s]--
	}
	return missing
}
