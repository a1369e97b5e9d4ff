package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent"
	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/export"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
)

// testInput are test's flags that stand for a payload: the one thing an
// action is about, and the payload around it is written by agenthooks.
type testInput struct {
	command, file, prompt, tool, input string
	from                               string
}

// addTestInputFlags registers them.
func addTestInputFlags(cmd *cobra.Command, in *testInput) {
	f := cmd.Flags()
	f.StringVar(&in.command, "command", "", "the shell command (beforeShellExecution, afterShellExecution; preToolUse and postToolUse as the Shell tool)")
	f.StringVar(&in.file, "file", "", "the file read (beforeReadFile, with its content; preToolUse as the Read tool) or edited (afterFileEdit)")
	f.StringVar(&in.prompt, "prompt", "", "the prompt submitted (beforeSubmitPrompt)")
	f.StringVar(&in.tool, "tool", "", "the tool called (preToolUse, postToolUse, beforeMCPExecution, afterMCPExecution), with --input")
	f.StringVar(&in.input, "input", "", "the tool's input, a JSON object, with --tool")
	f.StringVar(&in.from, "from", "", "send it as that agent's own hook payload and show the answer the agent receives: "+strings.Join(fromAgents(), ", "))
}

// given reports whether any of them was given.
func (in *testInput) given() bool {
	return in.command != "" || in.file != "" || in.prompt != "" || in.tool != "" || in.input != ""
}

// stepsFor says which steps each flag fits.
var stepsFor = map[string][]event.Step{
	"command": {event.BeforeShellExecution, event.AfterShellExecution, event.PreToolUse, event.PostToolUse},
	"file":    {event.BeforeReadFile, event.BeforeTabFileRead, event.AfterFileEdit, event.AfterTabFileEdit, event.PreToolUse, event.PostToolUse},
	"prompt":  {event.BeforeSubmitPrompt},
	"tool":    {event.PreToolUse, event.PostToolUse, event.PostToolUseFailure, event.BeforeMCPExecution, event.AfterMCPExecution},
}

// check refuses flags that do not go together or do not fit the step.
func (in *testInput) check(step event.Step, payloadSet bool) error {
	var set []string
	for name, v := range map[string]string{"command": in.command, "file": in.file, "prompt": in.prompt, "tool": in.tool} {
		if v != "" {
			set = append(set, name)
		}
	}
	slices.Sort(set)
	switch {
	case in.input != "" && in.tool == "":
		return usageErr("--input is the input of --tool NAME: give both")
	case len(set) > 1:
		return usageErr("give one of --%s", strings.Join(set, ", --"))
	case len(set) == 1 && payloadSet:
		return usageErr("--%s writes the payload: leave out --payload", set[0])
	case in.from != "" && len(set) == 0:
		return usageErr("--from AGENT needs the action: --command, --file, --prompt or --tool")
	}
	if len(set) == 1 && !slices.Contains(stepsFor[set[0]], step) {
		var names []string
		for _, s := range stepsFor[set[0]] {
			names = append(names, string(s))
		}
		return usageErr("--%s does not fit %s: it fits %s (or write the payload and give it with --payload)", set[0], step, strings.Join(names, ", "))
	}
	return nil
}

// payload is the step's Cursor payload for the flags, as an agent would
// send it, with the working directory as cwd.
func (in *testInput) payload(step event.Step, cwd string) (map[string]any, error) {
	p := map[string]any{"cwd": cwd}
	toolStep := step == event.PreToolUse || step == event.PostToolUse
	switch {
	case in.command != "" && toolStep:
		p["tool_name"], p["tool_input"] = export.ToolShell, map[string]any{"command": in.command}
	case in.command != "":
		p["command"] = in.command
		if step == event.AfterShellExecution {
			p["output"] = ""
		}
	case in.file != "":
		path := in.file
		if !filepath.IsAbs(path) {
			path = filepath.Join(cwd, path)
		}
		switch step {
		case event.PreToolUse, event.PostToolUse:
			p["tool_name"], p["tool_input"] = export.ToolRead, map[string]any{"file_path": path}
		case event.AfterFileEdit, event.AfterTabFileEdit:
			p["file_path"], p["edits"] = path, []any{}
		default:
			p["file_path"] = path
			content, _, err := agent.ReadBounded(agent.MaxContent)(path)
			if err != nil {
				return nil, dataErr("--file %s: %v (beforeReadFile hooks get the file's content)", in.file, err)
			}
			p["content"] = content
		}
	case in.prompt != "":
		p["prompt"], p["attachments"] = in.prompt, []any{}
	case in.tool != "":
		input := map[string]any{}
		if in.input != "" {
			if err := json.Unmarshal([]byte(in.input), &input); err != nil || input == nil {
				return nil, usageErr("--input %q is not a JSON object: write it as '{\"command\":\"ls\"}'", in.input)
			}
		}
		p["tool_name"], p["tool_input"] = in.tool, input
		if step == event.BeforeMCPExecution || step == event.AfterMCPExecution {
			raw, _ := jsonplain.Marshal(input)
			p["tool_input"] = string(raw)
		}
	}
	return p, nil
}

// fromAgents are the agents --from can speak for: those whose hook
// payload is Claude Code's shape (hook_event_name, tool_name,
// tool_input).
func fromAgents() []string { return []string{"claude", "codex", "gemini"} }

// agentPayload is the payload AGENT would send its hook for the step and
// the Cursor payload: the event the step is in that agent, its name for
// the tool.
func agentPayload(name string, step event.Step, cursor map[string]any) ([]byte, string, error) {
	if !slices.Contains(fromAgents(), name) {
		return nil, "", usageErr("--from %q: test writes the payload of %s; for another agent, give its payload with --payload and run it with agenthooks run --from", name, strings.Join(fromAgents(), ", "))
	}
	t := agents.Export().Lookup(name)
	sm, ok := t.Steps[step]
	if !ok || sm.Event == "" {
		return nil, "", usageErr("%s has no event for %s", t.Title, step)
	}
	p := map[string]any{"hook_event_name": sm.Event, "session_id": "agenthooks-test", "cwd": cursor["cwd"]}
	switch {
	case cursor["prompt"] != nil:
		p["prompt"] = cursor["prompt"]
	case cursor["tool_name"] != nil:
		toolName, _ := cursor["tool_name"].(string)
		if names := t.Tools[toolName]; len(names) > 0 {
			toolName = names[0]
		}
		p["tool_name"], p["tool_input"] = toolName, cursor["tool_input"]
	case sm.Tool != "":
		names := t.Tools[sm.Tool]
		if len(names) == 0 {
			return nil, "", usageErr("%s has no tool for %s", t.Title, step)
		}
		p["tool_name"] = names[0]
		switch {
		case cursor["command"] != nil:
			p["tool_input"] = map[string]any{"command": cursor["command"]}
		case cursor["file_path"] != nil:
			p["tool_input"] = map[string]any{"file_path": cursor["file_path"]}
		}
	}
	b, err := jsonplain.Marshal(p)
	return b, sm.Event, err
}

// runFrom dry-runs the agent's payload as run --from would (its Cursor
// steps, one decision) and prints what the agent sends, each step's
// trace, and the answer the agent receives.
func (o *testOptions) runFrom(ctx context.Context, h *host.Host, roots []string, eng *engine.Engine, payload []byte) error {
	a, _ := agents.Lookup(o.in.from)
	d := a.Dialect
	req, err := d.Parse(payload, "")
	if err != nil {
		return dataErr("%v", err)
	}
	agent.LoadContents(req.Calls, agent.ReadBounded(agent.MaxContent))
	fmt.Fprintf(o.io.Out, "%s sends its %s hook:\n  %s\n", d.Title, req.Event, payload)
	var ds []*engine.Decision
	for _, c := range req.Calls {
		raw, err := c.JSON()
		if err != nil {
			return dataErr("%v", err)
		}
		dec, matches, err := h.DryRun(ctx, roots, c.Step, raw, o.io.env)
		if err != nil {
			return dataErr("%v", err)
		}
		ds = append(ds, dec)
		fmt.Fprintln(o.io.Out)
		writeTrace(o.io.Out, c.Step, dec, matches, eng)
	}
	ans := d.Answer(req, agent.Merge(ds), agent.Options{})
	fmt.Fprintf(o.io.Out, "\n%s receives: exit %d\n", d.Title, ans.Code)
	if len(ans.Stdout) > 0 {
		fmt.Fprintf(o.io.Out, "  stdout: %s\n", strings.TrimSpace(string(ans.Stdout)))
	}
	if ans.Stderr != "" {
		fmt.Fprintf(o.io.Out, "  stderr: %s\n", strings.TrimSpace(ans.Stderr))
	}
	return nil
}

// inputPayload is the payload test runs: written from the flags, or read
// from --payload or stdin.
func (o *testOptions) inputPayload() ([]byte, error) {
	if !o.in.given() {
		return o.readPayload()
	}
	cwd := o.io.dir
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("current directory: %w", err)
		}
		cwd = wd
	}
	p, err := o.in.payload(o.step, cwd)
	if err != nil {
		return nil, err
	}
	if o.in.from != "" {
		b, _, err := agentPayload(o.in.from, o.step, p)
		return b, err
	}
	return jsonplain.Marshal(p)
}
