package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/runner"
	"github.com/agenthooks/agenthooks/sandbox"
)

type testOptions struct {
	io         *IO
	step       event.Step
	payload    string
	workspaces []string
	json       bool
	// in writes the payload from --command, --file, --prompt, --tool.
	in         testInput
	payloadSet bool
}

func newTestCmd(s *IO) *cobra.Command {
	o := &testOptions{io: s}
	cmd := &cobra.Command{
		Use:   "test STEP [--command CMD | --file PATH | --prompt TEXT | --tool NAME --input JSON | --payload FILE] [--from AGENT]",
		Short: "Dry-run one step and show, hook by hook, what happened and why",
		Long: `Test runs the hooks of STEP for a payload exactly as run does, but remembers nothing
(no session change, no log record), and shows every configured hook of the step:
whether it matched and why, what it answered, how long it took, its stderr, and
how the merge reached the decision.

The action needs no JSON: --command 'rm -rf /' (a shell command), --file PATH (a
file read, with its content), --prompt TEXT, --tool NAME --input JSON; the payload
around it is written for STEP, with the current directory as cwd. --from AGENT
(claude, codex, gemini) sends it as that agent's own hook payload instead, through
the Cursor steps it means, and shows the answer the agent receives. Otherwise the
payload comes from --payload FILE, or stdin when FILE is "-" or not given.`,
		Example:           `  agenthooks test beforeShellExecution --command 'rm -rf /'`,
		Args:              stepArg("test", "agenthooks test beforeShellExecution --payload p.json", &o.step),
		RunE:              func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
		ValidArgsFunction: completeStep,
	}
	cmd.Flags().StringVarP(&o.payload, "payload", "p", "-", `payload file ("-" for stdin)`)
	cmd.Flags().StringArrayVarP(&o.workspaces, "workspace", "w", nil, "workspace root (repeatable); default: the payload's workspace_roots, else the current directory")
	cmd.Flags().BoolVar(&o.json, "json", false, "print the trace as JSON")
	addTestInputFlags(cmd, &o.in)
	cmd.PreRunE = func(cmd *cobra.Command, _ []string) error {
		o.payloadSet = cmd.Flags().Changed("payload")
		if o.in.from != "" && o.json {
			return usageErr("--from shows the agent's answer as text: leave out --json")
		}
		return o.in.check(o.step, o.payloadSet)
	}
	return cmd
}

func (o *testOptions) run(ctx context.Context) error {
	payload, err := o.inputPayload()
	if err != nil {
		return err
	}
	roots, err := workspaceRoots(payload, o.workspaces)
	if err != nil {
		return err
	}
	h, eng, closeEngine, err := openHostEngine(ctx, roots, config.Skip{})
	if err != nil {
		return err
	}
	defer closeEngine()
	if o.in.from != "" {
		return o.runFrom(ctx, h, roots, eng, payload)
	}
	d, matches, err := h.DryRun(ctx, roots, o.step, payload, o.io.env)
	if err != nil {
		return dataErr("%v", err)
	}
	if o.json {
		return writeTraceJSON(o.io.Out, o.step, d, matches, eng)
	}
	writeTrace(o.io.Out, o.step, d, matches, eng)
	// The sandbox the workspace's commands would run in (docs/sandbox.md).
	fmt.Fprint(o.io.Out, "\n"+sandbox.Describe(h.Sandbox(roots)))
	return nil
}

// readPayload reads --payload FILE, or stdin.
func (o *testOptions) readPayload() ([]byte, error) {
	var in io.Reader = o.io.In
	if o.payload != "-" {
		f, err := os.Open(o.payload)
		if err != nil {
			return nil, dataErr("payload: %v", err)
		}
		defer f.Close()
		in = f
	}
	return readPayload(in)
}

// outcomeOf finds the outcome of a hook that ran.
func outcomeOf(d *engine.Decision, m engine.Match) *engine.Outcome {
	for i := range d.Hooks {
		if d.Hooks[i].Hook == m.Hook {
			return &d.Hooks[i]
		}
	}
	return nil
}

func matchReason(m engine.Match) string {
	switch {
	case m.Ignored:
		return "yes (this step has no match value: every hook runs)"
	case m.Hook.Match == nil:
		return "yes (no matcher)"
	case m.Matched:
		return fmt.Sprintf("yes (matcher %q matches %q)", m.Hook.Matcher, m.Target)
	}
	return fmt.Sprintf("no (matcher %q does not match %q): not run", m.Hook.Matcher, m.Target)
}

func answerText(o *engine.Outcome) string {
	r := o.Result
	switch {
	case r.Failure != runner.OK:
		return fmt.Sprintf("failed: %s: %s → %s", r.Failure, r.Detail, o.Said)
	case r.Response == nil && r.Blocked:
		return "exit 2 → " + o.Said
	case r.Response == nil && r.Warning != "":
		return "nothing this step reads → no opinion"
	case r.Response == nil:
		return "nothing → no opinion"
	}
	var compact bytes.Buffer
	if json.Compact(&compact, r.Response.Raw) != nil {
		compact.Write(r.Response.Raw)
	}
	return fmt.Sprintf("%s → %s", compact.Bytes(), o.Said)
}

func writeTrace(w io.Writer, step event.Step, d *engine.Decision, matches []engine.Match, eng *engine.Engine) {
	ran := len(d.Hooks)
	fmt.Fprintf(w, "%s: %d hook(s) configured, %d ran\n", step, len(matches), ran)
	for _, p := range eng.Problems() {
		fmt.Fprintf(w, "  problem: %s\n", p.Error())
	}
	for i, m := range matches {
		h := m.Hook
		fmt.Fprintf(w, "\n%d. %s  %s\n", i+1, h.Source, h.ID())
		if h.Type == "prompt" {
			fmt.Fprintf(w, "   prompt    %s\n", h.Prompt)
		} else {
			fmt.Fprintf(w, "   command   %s\n", h.Command)
		}
		fmt.Fprintf(w, "   matched   %s\n", matchReason(m))
		o := outcomeOf(d, m)
		if o == nil {
			continue
		}
		fmt.Fprintf(w, "   answered  %s\n", answerText(o))
		if o.Result.Warning != "" {
			fmt.Fprintf(w, "   warning   %s\n", o.Result.Warning)
		}
		fmt.Fprintf(w, "   took      %s, exit %d\n", o.Result.Duration.Round(time.Microsecond*100), o.Result.ExitCode)
		if s := strings.TrimSpace(string(o.Result.Stderr)); s != "" {
			fmt.Fprintf(w, "   stderr    %s\n", strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\n", "\n             "))
		}
	}
	fmt.Fprintf(w, "\ndecision: %s\n", d.Summary())
	for _, line := range d.Explain() {
		fmt.Fprintf(w, "  %s\n", line)
	}
	if d.Blocked() {
		fmt.Fprintf(w, "  shown to the user:  %s\n  shown to the model: %s\n", d.ClientMessage, d.ModelMessage)
	}
	resp, _ := json.Marshal(d.Response())
	fmt.Fprintf(w, "response: %s\n", resp)
}

// traceHook is one hook in the JSON trace.
type traceHook struct {
	Source     string          `json:"source"`
	ID         string          `json:"id"`
	Command    string          `json:"command,omitempty"`
	Prompt     string          `json:"prompt,omitempty"`
	Matched    bool            `json:"matched"`
	Match      string          `json:"match"`
	Ran        bool            `json:"ran"`
	Said       string          `json:"said,omitempty"`
	Response   json.RawMessage `json:"response,omitempty"`
	Failure    string          `json:"failure,omitempty"`
	Detail     string          `json:"detail,omitempty"`
	Warning    string          `json:"warning,omitempty"`
	ExitCode   int             `json:"exit_code"`
	DurationMS float64         `json:"duration_ms"`
	Stderr     string          `json:"stderr,omitempty"`
}

func writeTraceJSON(w io.Writer, step event.Step, d *engine.Decision, matches []engine.Match, eng *engine.Engine) error {
	hooks := make([]traceHook, 0, len(matches))
	for _, m := range matches {
		t := traceHook{Source: m.Hook.Source.String(), ID: m.Hook.ID(), Command: m.Hook.Command, Prompt: m.Hook.Prompt, Matched: m.Matched, Match: matchReason(m)}
		if o := outcomeOf(d, m); o != nil {
			t.Ran, t.Said, t.Failure, t.Detail, t.ExitCode = true, o.Said, string(o.Result.Failure), o.Result.Detail, o.Result.ExitCode
			t.Warning = o.Result.Warning
			t.DurationMS = float64(o.Result.Duration.Microseconds()) / 1000
			t.Stderr = strings.ToValidUTF8(string(o.Result.Stderr), "\uFFFD")
			if o.Result.Response != nil {
				t.Response = o.Result.Response.Raw
			}
		}
		hooks = append(hooks, t)
	}
	problems := make([]string, 0)
	for _, p := range eng.Problems() {
		problems = append(problems, p.Error())
	}
	enc := jsonplain.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{
		"step":     step,
		"hooks":    hooks,
		"decision": d.Summary(),
		"explain":  d.Explain(),
		"response": d.Response(),
		"problems": problems,
	})
}
