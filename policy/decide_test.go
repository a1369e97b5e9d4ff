package policy

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

func mustCompile(t testing.TB, src string) *Policy {
	t.Helper()
	p, err := Compile("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const layered = `rules:
  - name: allow-ls
    steps: [beforeShellExecution]
    when: commands(command).exists(c, c.name == "ls")
    decision: allow
    user_message: ls is fine
  - name: ask-curl
    steps: [beforeShellExecution]
    when: commands(command).exists(c, c.name == "curl")
    decision: ask
    user_message: first ask
    agent_message: first ask (agent)
  - name: ask-curl-again
    steps: [beforeShellExecution]
    when: commands(command).exists(c, c.name == "curl")
    decision: ask
    user_message: second ask
  - name: deny-rm
    steps: [beforeShellExecution, beforeReadFile, beforeSubmitPrompt]
    when: command.contains("rm") || input.?prompt.orValue("").contains("rm") || input.?file_path.orValue("") == "rm"
    decision: deny
    user_message: no rm
    agent_message: no rm (agent)
  - name: allow-after-deny
    steps: [beforeShellExecution]
    when: "true"
    decision: allow
`

func TestDecideMostRestrictive(t *testing.T) {
	p := mustCompile(t, layered)
	cases := []struct {
		cmd     string
		want    event.Permission
		rule    string
		matched []string
	}{
		{"ls", event.Allow, "allow-ls", []string{"allow-ls", "allow-after-deny"}},
		{"ls; curl x", event.Ask, "ask-curl", []string{"allow-ls", "ask-curl", "ask-curl-again", "allow-after-deny"}},
		{"ls && curl x && rm y", event.Deny, "deny-rm", []string{"allow-ls", "ask-curl", "ask-curl-again", "deny-rm"}},
		{"pwd", event.Allow, "allow-after-deny", []string{"allow-after-deny"}},
	}
	for _, c := range cases {
		v, err := p.Decide(context.Background(), event.BeforeShellExecution, map[string]any{"command": c.cmd})
		if err != nil {
			t.Fatal(err)
		}
		var matched []string
		for _, r := range v.Matched {
			matched = append(matched, r.Name)
		}
		if v.Decision != c.want || v.Rule.Name != c.rule || !reflect.DeepEqual(matched, c.matched) {
			t.Errorf("%q: %s by %s, matched %v; want %s by %s, matched %v", c.cmd, v.Decision, v.Rule.Name, matched, c.want, c.rule, c.matched)
		}
	}
	v, _ := p.Decide(context.Background(), event.BeforeShellExecution, map[string]any{"command": "curl x"})
	if got := string(v.JSON(event.BeforeShellExecution)); got != `{"permission":"ask","user_message":"first ask","agent_message":"first ask (agent)"}` {
		t.Errorf("ask JSON = %s", got)
	}
}

func TestDecideNoOpinion(t *testing.T) {
	p := mustCompile(t, layered)
	// No rule for the step at all, and rules that do not match.
	for _, c := range []struct {
		step  event.Step
		input map[string]any
	}{
		{event.BeforeMCPExecution, map[string]any{"tool_name": "x"}},
		{event.BeforeReadFile, map[string]any{"file_path": "/a"}},
		{event.Stop, map[string]any{}},
	} {
		v, err := p.Decide(context.Background(), c.step, c.input)
		if err != nil || v.Decision != event.NoOpinion || v.Rule != nil || v.Response(c.step) != nil || string(v.JSON(c.step)) != "{}" {
			t.Errorf("%s: %+v, %v, %s", c.step, v, err, v.JSON(c.step))
		}
	}
	if _, err := p.Decide(context.Background(), "noSuchStep", nil); err == nil {
		t.Error("unknown step: no error")
	}
}

// TestDecideShapes: each step gets the answer its schema defines, and the
// in-process Response is exactly what parsing the printed JSON gives.
func TestDecideShapes(t *testing.T) {
	p := mustCompile(t, layered)
	cases := []struct {
		step  event.Step
		input map[string]any
		json  string
	}{
		{event.BeforeShellExecution, map[string]any{"command": "rm x"}, `{"permission":"deny","user_message":"no rm","agent_message":"no rm (agent)"}`},
		{event.BeforeReadFile, map[string]any{"file_path": "rm"}, `{"permission":"deny","user_message":"no rm"}`},
		{event.BeforeSubmitPrompt, map[string]any{"prompt": "please rm"}, `{"continue":false,"user_message":"no rm"}`},
	}
	for _, c := range cases {
		v, err := p.Decide(context.Background(), c.step, c.input)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(v.JSON(c.step)); got != c.json {
			t.Errorf("%s: %s, want %s", c.step, got, c.json)
		}
		parsed, err := event.ParseResponse(c.step, v.JSON(c.step))
		if err != nil || !reflect.DeepEqual(parsed, v.Response(c.step)) {
			t.Errorf("%s: Response %+v differs from parsing the JSON: %+v (%v)", c.step, v.Response(c.step), parsed, err)
		}
	}
	allow := mustCompile(t, `rules:
  - name: ok
    steps: [beforeSubmitPrompt]
    when: "true"
    decision: allow
    user_message: not shown
`)
	v, _ := allow.Decide(context.Background(), event.BeforeSubmitPrompt, map[string]any{})
	if got := string(v.JSON(event.BeforeSubmitPrompt)); got != `{"continue":true}` {
		t.Errorf("allowed prompt: %s", got)
	}
}

func TestDecideEvalErrors(t *testing.T) {
	src := `rules:
  - name: allow-all
    steps: [beforeShellExecution]
    when: "true"
    decision: allow
  - name: broken-deny
    steps: [beforeShellExecution]
    when: input.missing == "x"
    decision: deny
  - name: broken-allow
    steps: [beforeShellExecution]
    when: input.missing2 == "x"
    decision: allow
  - name: deny-rm
    steps: [beforeShellExecution]
    when: command == "rm"
    decision: deny
`
	p := mustCompile(t, src)
	// broken-deny could have made "allow" a deny: the evaluation fails,
	// naming the rule and its condition's position.
	_, err := p.Decide(context.Background(), event.BeforeShellExecution, map[string]any{"command": "ls"})
	var ee *EvalError
	if !errors.As(err, &ee) || ee.Rule.Name != "broken-deny" || !strings.Contains(err.Error(), "p.yaml:8:11: rule \"broken-deny\"") || !strings.Contains(err.Error(), "no such key: missing") {
		t.Errorf("err = %v", err)
	}
	// A deny that matched cannot be made stricter: the errors do not matter.
	v, err := p.Decide(context.Background(), event.BeforeShellExecution, map[string]any{"command": "rm"})
	if err != nil || v.Decision != event.Deny || v.Rule.Name != "deny-rm" {
		t.Errorf("rm: %+v, %v", v, err)
	}
	// An erroring allow rule cannot make anything stricter.
	p2 := mustCompile(t, `rules:
  - name: broken-allow
    steps: [beforeShellExecution]
    when: input.missing == "x"
    decision: allow
`)
	if v, err := p2.Decide(context.Background(), event.BeforeShellExecution, map[string]any{}); err == nil || v.Decision != "" {
		t.Errorf("broken allow over no opinion must fail (allow is stricter than none): %+v %v", v, err)
	}
	p3 := mustCompile(t, `rules:
  - name: ask
    steps: [beforeShellExecution]
    when: "true"
    decision: ask
  - name: broken-allow
    steps: [beforeShellExecution]
    when: input.missing == "x"
    decision: allow
`)
	if v, err := p3.Decide(context.Background(), event.BeforeShellExecution, map[string]any{}); err != nil || v.Decision != event.Ask {
		t.Errorf("broken allow under ask: %+v %v", v, err)
	}
}

func TestDecideCanceled(t *testing.T) {
	p := mustCompile(t, layered)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Decide(ctx, event.BeforeShellExecution, map[string]any{"command": "ls"}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestDecideCommandVariable(t *testing.T) {
	p := mustCompile(t, `rules:
  - name: r
    steps: [beforeShellExecution, preToolUse, beforeMCPExecution]
    when: command == "rm -rf /"
    decision: deny
`)
	cases := []struct {
		step    event.Step
		payload string
		want    event.Permission
	}{
		{event.BeforeShellExecution, `{"command":"rm -rf /"}`, event.Deny},
		{event.PreToolUse, `{"tool_name":"Shell","tool_input":{"command":"rm -rf /"}}`, event.Deny},
		{event.PreToolUse, `{"tool_name":"Shell","tool_input":"{\"command\":\"rm -rf /\"}"}`, event.Deny},
		{event.PreToolUse, `{"tool_name":"Read","tool_input":{"file_path":"rm -rf /"}}`, event.NoOpinion},
		// beforeMCPExecution's command is the MCP server's, not one about to run.
		{event.BeforeMCPExecution, `{"tool_name":"x","command":"rm -rf /"}`, event.NoOpinion},
	}
	for _, c := range cases {
		v, err := p.DecideJSON(context.Background(), c.step, []byte(c.payload))
		if err != nil || v.Decision != c.want {
			t.Errorf("%s %s: %q, %v", c.step, c.payload, v.Decision, err)
		}
	}
	if _, err := p.DecideJSON(context.Background(), event.BeforeShellExecution, []byte("[1]")); err == nil {
		t.Error("a payload that is not an object must fail")
	}
}

// TestHelpersInCEL calls every helper from a condition, with the values
// policies pass them (dyn lists from the payload and vars).
func TestHelpersInCEL(t *testing.T) {
	conds := map[string]string{
		"glob list from vars": `glob(input.path, vars.pats)`,
		"glob":                `glob(input.path, "*.pem")`,
		"inWorkspace":         `inWorkspace("/ws/a/b", input.workspace_roots) && !inWorkspace("/elsewhere", input.workspace_roots)`,
		"joinPath":            `joinPath("/ws", "a/../b") == "/ws/b"`,
		"basename ext":        `basename(input.path) == "k.pem" && ext(input.path) == ".pem"`,
		"mcp":                 `mcpServer("mcp__gh__issue") == "gh" && mcpTool("MCP:issue") == "issue"`,
		"urlHost":             `urlHost("https://X.example:1/y") == "x.example"`,
		"commands fields":     `commands("sudo -u b GIT=1 git push o m").exists(c, c.name == "git" && c.args == ["push", "o", "m"] && c.via == ["sudo"] && c.env.GIT == "1" && c.cwd == "." && !c.dynamic && c.dynamic_args.size() == 0 && c.path == "git" && c.text.startsWith("sudo"))`,
		"dynamic_args":        `commands("git push o $B")[0].dynamic_args == [2]`,
		"gitPush":             `commands("git push -f origin HEAD:main").exists(c, gitPush(c).push && gitPush(c).force && gitPush(c).refspecs[0].dst == "main" && gitPush(c).remote == "origin")`,
		"gitPush of a map":    `gitPush({"name": "git", "args": ["push", "o", "x"]}).refspecs[0].dst == "x"`,
		"netHosts":            `commands("curl https://a.example").exists(c, netHosts(c) == ["a.example"])`,
		"netHosts of other":   `netHosts(commands("ls")[0]).size() == 0`,
		"strings ext":         `"A,B".lowerAscii().split(",") == ["a", "b"]`,
		"optional":            `input.?nope.orValue("d") == "d"`,
		"numbers from JSON":   `input.n == 3`,
		"step":                `step == "beforeShellExecution"`,
	}
	for name, cond := range conds {
		src := "vars:\n  pats: [\"*.key\", \"*.pem\"]\nrules:\n  - name: r\n    steps: [beforeShellExecution]\n    when: '" + strings.ReplaceAll(cond, "'", "''") + "'\n    decision: deny\n"
		p, err := Compile("p.yaml", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		payload, _ := json.Marshal(map[string]any{"path": "/ws/k.pem", "workspace_roots": []string{"/ws"}, "n": 3})
		v, err := p.DecideJSON(context.Background(), event.BeforeShellExecution, payload)
		if err != nil || v.Decision != event.Deny {
			t.Errorf("%s: %s gave %q, %v", name, cond, v.Decision, err)
		}
	}
}
