package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/jsonscan"
)

// maxPayload bounds what run reads from stdin; beforeReadFile payloads
// carry whole files, so the bound is generous.
const maxPayload = 256 << 20

type runOptions struct {
	io         *IO
	step       event.Step
	workspaces []string
	from       fromOptions // --from AGENT: see run_from.go
}

func newRunCmd(s *IO) *cobra.Command {
	o := &runOptions{io: s}
	cmd := &cobra.Command{
		Use:   "run STEP [--workspace DIR]... | run --from AGENT [EVENT]",
		Short: "Run the hooks of one step: payload on stdin, merged response on stdout",
		Long: `Run reads the step's payload (Cursor's JSON shape) on stdin, runs every configured
hook that matches it, and prints the merged response (Cursor's shape) on stdout:
{} when no hook had an opinion. It exits 0 whenever the hooks ran, whatever they
decided: the decision is in the JSON.

Workspace roots come from the payload's workspace_roots, else --workspace, else
the current directory.

With --from AGENT, run is one of that agent's own hooks (Claude Code, Gemini CLI,
Codex, GitHub Copilot, OpenCode, or the cross-agent hook contract): it reads the
payload the agent sends its hooks, runs the Cursor steps the event means as one
decision, and answers in the agent's format and exit-code convention. EVENT is
needed only when the payload does not name its event. See ` + docsURL + `dialects.md.

Steps: ` + stepList(),
		Example: `  echo '{"command":"git push","cwd":"."}' | agenthooks run beforeShellExecution`,
		Args: func(cmd *cobra.Command, args []string) error {
			return o.checkArgs(args, cmd.Flags().Changed("allow-means"))
		},
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.from.agent != "" {
				return o.runFrom(cmd.Context())
			}
			return o.run(cmd.Context())
		},
		ValidArgsFunction: completeStep,
	}
	cmd.Flags().StringArrayVarP(&o.workspaces, "workspace", "w", nil, "workspace root (repeatable); default: the payload's workspace_roots, else the current directory")
	addFromFlags(cmd, o)
	return cmd
}

func (o *runOptions) run(ctx context.Context) error {
	payload, perr := readPayload(o.io.In)
	o.warnMissingWorkspaces()
	h := o.io.openHost(ctx)
	rep := h.Run(ctx, host.Request{Step: o.step, Payload: payload, PayloadKept: true, PayloadErr: perr, Workspaces: o.workspaces, Dir: o.io.dir, Env: o.io.env})
	return o.finish(ctx, h, rep, true)
}

// finish writes a reply, then writes the execution log: the answer never
// waits for the log. showStderr says whether problems and warnings may
// go to stderr (not when stderr is an agent's blocking reason).
func (o *runOptions) finish(ctx context.Context, h *host.Host, rep *host.Reply, showStderr bool) error {
	if showStderr {
		for _, p := range rep.Problems {
			fmt.Fprintln(o.io.Err, "agenthooks:", p)
		}
		for _, w := range append(h.OpenWarnings(), rep.Warnings...) {
			if !saidInAnswer(rep, w) {
				fmt.Fprintln(o.io.Err, "agenthooks: warning:", w)
			}
		}
	}
	if o.from.verbose {
		for _, n := range rep.Notes {
			fmt.Fprintln(o.io.Err, "agenthooks: note:", n)
		}
	}
	var werr error
	if len(rep.Stdout) > 0 {
		if _, err := o.io.Out.Write(rep.Stdout); err != nil {
			werr = fmt.Errorf("write answer: %w", err)
		}
	}
	if rep.Stderr != "" {
		fmt.Fprintln(o.io.Err, rep.Stderr)
	}
	// The log is written after the answer, with a bounded wait; a
	// resident engine writes it after the client has its answer.
	if o.io.host == nil {
		before := len(h.Warnings())
		_ = h.Close(context.WithoutCancel(ctx))
		if showStderr {
			for _, w := range h.Warnings()[before:] {
				fmt.Fprintln(o.io.Err, "agenthooks: warning:", w)
			}
		}
	}
	switch {
	case werr != nil:
		return werr
	case rep.Code != 0:
		return silentExit(rep.Code)
	}
	return nil
}

// warnMissingWorkspaces says so when a --workspace is not a folder: its
// project hooks cannot run, and a typo there must not look like a
// workspace without hooks. The step still runs: run answers an agent.
func (o *runOptions) warnMissingWorkspaces() {
	for _, w := range o.workspaces {
		p := w
		if !filepath.IsAbs(p) && o.io.dir != "" {
			p = filepath.Join(o.io.dir, p)
		}
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			fmt.Fprintf(o.io.Err, "agenthooks: warning: --workspace %s is not a folder: no project hooks come from it\n", w)
		}
	}
}

// saidInAnswer reports whether warning w is the fault that the answer's
// own stderr already gives (an agent's failed-hook or refusal message), so
// the agent's user reads it once.
func saidInAnswer(rep *host.Reply, w string) bool {
	return rep.Fault != nil && rep.Stderr != "" && strings.Contains(w, rep.Fault.Error()) && strings.Contains(rep.Stderr, rep.Fault.Error())
}

// workspaceRoots picks the roots: the payload's, else the flags, else the
// current directory; always absolute.
func workspaceRoots(payload []byte, flags []string) ([]string, error) {
	var roots []string
	if len(bytes.TrimSpace(payload)) > 0 {
		fields, err := jsonscan.Object(payload)
		if err != nil || fields == nil {
			return nil, dataErr("payload on stdin is not a JSON object: %v", err)
		}
		if raw, ok := fields["workspace_roots"]; ok && string(raw) != "null" {
			if err := json.Unmarshal(raw, &roots); err != nil {
				return nil, dataErr("the payload's workspace_roots is not a list of paths: %v", err)
			}
		}
	}
	if len(roots) == 0 {
		for _, f := range flags {
			if fi, err := os.Stat(f); err != nil || !fi.IsDir() {
				return nil, usageErr("--workspace %q is not a folder", f)
			}
		}
		roots = flags
	}
	if len(roots) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("current directory: %w", err)
		}
		roots = []string{wd}
	}
	out := make([]string, 0, len(roots))
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			return nil, usageErr("workspace %q: %v", r, err)
		}
		out = append(out, abs)
	}
	return out, nil
}

// workspaceDir is one workspace root: dir, else the current directory;
// absolute, and an existing directory.
func workspaceDir(dir string) (string, error) {
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("current directory: %w", err)
		}
		dir = wd
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return "", usageErr("workspace %q: %v", dir, err)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return "", usageErr("workspace %q is not a directory", dir)
	}
	return root, nil
}

// suggestStep returns ` (did you mean "x"?)` for a near-miss step name.
func suggestStep(name string) string {
	if s, ok := config.SuggestStep(name); ok {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return "; run agenthooks run --help for the list"
}

// stepList is every step name, for help texts.
func stepList() string { return strings.Join(stepNames(), ", ") }

func stepNames() []string {
	names := make([]string, len(event.Steps))
	for i, s := range event.Steps {
		names[i] = string(s)
	}
	return names
}

// completeStep offers the step names for shell completion.
func completeStep(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return stepNames(), cobra.ShellCompDirectiveNoFileComp
}

// stepArg checks a verb's single STEP argument and stores it.
func stepArg(verb, example string, step *event.Step) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error { return checkStep(verb, example, step, args) }
}

// checkStep is stepArg's check.
func checkStep(verb, example string, step *event.Step, args []string) error {
	if len(args) != 1 {
		return usageErr("%s takes exactly one STEP, e.g. %s", verb, example)
	}
	*step = event.Step(args[0])
	if !step.Known() {
		return usageErr("unknown step %q%s", args[0], suggestStep(args[0]))
	}
	return nil
}

// readPayload reads a step's payload, bounded: beforeReadFile payloads
// carry whole files, so the bound is generous but there is one.
func readPayload(r io.Reader) ([]byte, error) {
	if b, ok := r.(*servedInput); ok {
		// The resident engine's: in memory already, read once.
		return b.take()
	}
	var buf bytes.Buffer
	// A payload already in memory (the resident engine's) is read into
	// a buffer of its size, not one doubled over and over.
	if l, ok := r.(interface{ Len() int }); ok {
		buf.Grow(min(l.Len(), maxPayload) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, maxPayload+1)); err != nil {
		return nil, fmt.Errorf("read payload: %w", err)
	}
	if buf.Len() > maxPayload {
		return nil, dataErr("payload is larger than %d MiB", maxPayload>>20)
	}
	return buf.Bytes(), nil
}
