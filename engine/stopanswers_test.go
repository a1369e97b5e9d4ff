package engine_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
)

// TestStoppingAnswerSurvivesEveryExitCode: a hooks.json hook whose stdout
// denies, asks or blocks, in any wording hooks are written in (Cursor's,
// its camelCase, Claude Code's), keeps the action stopped whatever its
// exit code, on every step that can stop something, and says so in a
// warning when the exit code or the wording was not Cursor's. Nothing
// stopping is lost: the table is every answer × exit code × step.
func TestStoppingAnswerSurvivesEveryExitCode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the hooks are POSIX shell scripts")
	}
	type want int
	const (
		deny want = iota
		ask
		block    // beforeSubmitPrompt: continue false
		followup // stop: the reason as the follow-up
	)
	prompt := map[event.Step]bool{event.BeforeSubmitPrompt: true}
	promptAndReads := map[event.Step]bool{event.BeforeSubmitPrompt: true, event.BeforeReadFile: true}
	gates := map[event.Step]bool{event.BeforeShellExecution: true, event.BeforeMCPExecution: true,
		event.BeforeReadFile: true, event.PreToolUse: true, event.SubagentStart: true}
	answers := []struct {
		name, json string
		// what it means at a gate, and whether the prompt and stop
		// steps stop on it.
		gate             want
		prompt, stopStep bool
		claude           bool // worded as Claude Code words it
		// foreign: steps whose schema does not have these words.
		foreign map[event.Step]bool
	}{
		{"permission deny", `{"permission":"deny","user_message":"no","agent_message":"why"}`, deny, true, false, false, prompt},
		{"camelCase deny", `{"permission":"deny","userMessage":"no","agentMessage":"why"}`, deny, true, false, false, prompt},
		{"permission ask", `{"permission":"ask","user_message":"no"}`, ask, true, false, false, promptAndReads},
		{"continue false", `{"continue":false,"user_message":"no"}`, deny, true, false, false, gates},
		{"claude decision block", `{"decision":"block","reason":"why"}`, deny, true, true, true, nil},
		{"gemini decision deny", `{"decision":"deny","reason":"why"}`, deny, true, true, true, nil},
		{"claude permissionDecision deny", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"why"}}`, deny, true, false, true, nil},
		{"claude permissionDecision ask", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"why"}}`, ask, true, false, true, nil},
	}
	steps := []struct {
		step    event.Step
		payload string
		canAsk  bool
	}{
		{event.BeforeShellExecution, `{"command":"rm -rf /","cwd":"/"}`, true},
		{event.BeforeMCPExecution, `{"tool_name":"t","tool_input":"{}","command":"srv"}`, true},
		{event.BeforeReadFile, `{"file_path":"/x/.env","content":"K=V"}`, false},
		{event.PreToolUse, `{"tool_name":"Shell","tool_input":{"command":"rm -rf /"}}`, true},
		{event.SubagentStart, `{"subagent_type":"explore","task":"t"}`, false},
		{event.BeforeSubmitPrompt, `{"prompt":"p"}`, false},
		{event.Stop, `{"status":"completed","loop_count":0}`, false},
	}
	for _, a := range answers {
		for _, code := range []int{0, 1, 2, 3} {
			for _, s := range steps {
				name := fmt.Sprintf("%s/exit %d/%s", a.name, code, s.step)
				t.Run(name, func(t *testing.T) {
					f := newFixture(t)
					f.write(config.User, map[event.Step][]hk{s.step: {{"command": f.script("h.sh",
						fmt.Sprintf("cat >/dev/null; echo '%s'; exit %d", a.json, code))}}})
					d := run(t, f.engine(), s.step, s.payload)
					res := d.Hooks[0].Result
					switch s.step {
					case event.BeforeSubmitPrompt:
						if a.prompt != d.Blocked() {
							t.Fatalf("prompt blocked %v, want %v (hook: %+v)", d.Blocked(), a.prompt, res)
						}
					case event.Stop:
						got := d.FollowupMessage == "why"
						if a.stopStep != got {
							t.Fatalf("follow-up %q, want it %v (hook: %+v)", d.FollowupMessage, a.stopStep, res)
						}
						if !a.stopStep {
							return
						}
					default:
						w := event.Deny
						if a.gate == ask && s.canAsk && code != 2 {
							w = event.Ask
						}
						if d.Permission != w {
							t.Fatalf("permission %q, want %q (hook: %+v)", d.Permission, w, res)
						}
						if a.claude && code != 2 && !strings.Contains(d.ModelMessage+d.UserMessage, "why") {
							t.Fatalf("the reason is lost: model message %q, user message %q", d.ModelMessage, d.UserMessage)
						}
					}
					if code == 1 || code == 3 {
						if !strings.Contains(res.Warning, fmt.Sprintf("exited with status %d", code)) {
							t.Fatalf("warning %q, want one naming the exit status", res.Warning)
						}
					}
					if (a.claude || a.foreign[s.step]) && code != 2 && !strings.Contains(res.Warning, "answered with") {
						t.Fatalf("warning %q, want one naming the wording", res.Warning)
					}
				})
			}
		}
	}
}
