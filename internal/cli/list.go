package cli

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/internal/printable"
	"github.com/agenthooks/agenthooks/runner"
)

type listOptions struct {
	io         *IO
	workspaces []string
	json       bool
}

func newListCmd(s *IO) *cobra.Command {
	o := &listOptions{io: s}
	cmd := &cobra.Command{
		Use:   "list [--workspace DIR]... [--json]",
		Short: "List every configured hook, where it comes from and whether it runs",
		Long: `List shows every hook of every source (enterprise, team, each workspace's project
hooks, user), grouped by file in priority order: its step, matcher, type, effective
timeout, failClosed, loop limit (stop and subagentStop) and command or prompt.
Hooks of a project file that is not trusted are listed too, marked as not
running, with the reason. Problems found while loading follow; list exits 0 even
then (validate is the checker).

--json prints {"hooks": [...], "problems": [...]}; the hook fields are named as
in hooks.json where they come from it.`,
		Example: `  agenthooks list`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
	}
	cmd.Flags().StringArrayVarP(&o.workspaces, "workspace", "w", nil, "workspace root (repeatable); default: the current directory")
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON instead of a table")
	return cmd
}

// listedHook is one hook as list reports it. The field names are part of
// the command's interface: keep them stable.
type listedHook struct {
	Source string `json:"source"`
	File   string `json:"file"`
	Step   string `json:"step"`
	Index  int    `json:"index"`
	Type   string `json:"type"`
	// Command or Prompt (with Model) is set, according to Type.
	Command string `json:"command,omitempty"`
	Prompt  string `json:"prompt,omitempty"`
	Model   string `json:"model,omitempty"`
	Matcher string `json:"matcher"`
	// Timeout is the effective timeout in seconds; TimeoutDefault says it
	// is the engine's default rather than the hook's own.
	Timeout        float64 `json:"timeout"`
	TimeoutDefault bool    `json:"timeout_default"`
	FailClosed     bool    `json:"failClosed"`
	// LoopLimit is present for stop and subagentStop only; null there
	// means no limit.
	LoopLimit *listLoopLimit `json:"loop_limit,omitempty"`
	// Trusted and TrustReason describe the file; Runs is false for the
	// hooks of an untrusted project file.
	Trusted     bool   `json:"trusted"`
	TrustReason string `json:"trust_reason,omitempty"`
	Runs        bool   `json:"runs"`
	Dir         string `json:"dir"`
	// Mistakes are the problems that disarm this hook (config.Disarming:
	// what validate, trust and the team server refuse), one line each.
	Mistakes []string `json:"mistakes,omitempty"`
}

// listLoopLimit marshals as a number, or null for no limit.
type listLoopLimit struct{ l config.LoopLimit }

func (l listLoopLimit) MarshalJSON() ([]byte, error) {
	if l.l.Unlimited {
		return []byte("null"), nil
	}
	return []byte(strconv.Itoa(l.l.N)), nil
}

// listedProblem is one load problem; Text is the one-line form validate
// prints. Every field but Disarms is always present.
type listedProblem struct {
	File     string `json:"file"`
	Line     int    `json:"line"` // 0 when the problem is about the whole file
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Field    string `json:"field"` // as hooks.stop[0].timeout; "" for the whole file
	Message  string `json:"message"`
	Fix      string `json:"fix"`
	Text     string `json:"text"`
	// Disarms marks a mistake that silently disarms a guard; absent
	// otherwise.
	Disarms bool `json:"disarms,omitempty"`
}

func (o *listOptions) run(ctx context.Context) error {
	roots, err := workspaceRoots(nil, o.workspaces)
	if err != nil {
		return err
	}
	eng, closeEngine, err := openEngine(ctx, roots, config.Skip{})
	if err != nil {
		return err
	}
	defer closeEngine()
	set := eng.Config()
	problems := append(slices.Clip(set.Problems), config.MissingPrograms(set.FileHooks(), o.io.environ())...)
	problems = append(problems, unsurePins(set.FileHooks(), trustedRoots(o.io.getenv))...)
	if o.json {
		return writeListJSON(o.io.Out, set, problems)
	}
	return writeListTable(o.io.Out, set, problems)
}

// listHooks flattens the set's files into listed hooks, in priority order.
func listHooks(set *config.Set, problems []config.Problem) []listedHook {
	running := make(map[*config.Hook]bool, len(set.Hooks))
	for _, h := range set.Hooks {
		running[h] = true
	}
	out := []listedHook{}
	for _, f := range set.Files {
		for _, h := range f.Hooks {
			timeout, isDefault := listTimeout(h)
			lh := listedHook{
				Source: f.Source.String(), File: f.Path, Step: string(h.Step), Index: h.Index,
				Type: h.Type, Command: h.Command, Prompt: h.Prompt, Model: h.Model,
				Matcher: h.Matcher, Timeout: timeout.Seconds(), TimeoutDefault: isDefault,
				FailClosed: h.FailClosed, Trusted: f.Trusted, TrustReason: f.TrustReason,
				Runs: running[h], Dir: h.Dir,
			}
			if h.Step == event.Stop || h.Step == event.SubagentStop {
				lh.LoopLimit = &listLoopLimit{h.LoopLimit}
			}
			for _, p := range config.Disarming(problems) {
				if p.Concerns(h) {
					lh.Mistakes = append(lh.Mistakes, p.Error())
				}
			}
			out = append(out, lh)
		}
	}
	return out
}

// listTimeout is the hook's timeout, else the engine's default for
// its type.
func listTimeout(h *config.Hook) (time.Duration, bool) {
	switch {
	case h.Timeout > 0:
		return h.Timeout, false
	case h.Type == config.TypePrompt:
		return runner.DefaultPromptTimeout, true
	default:
		return runner.DefaultTimeout, true
	}
}

func writeListJSON(w io.Writer, set *config.Set, problems []config.Problem) error {
	doc := struct {
		Hooks    []listedHook    `json:"hooks"`
		Problems []listedProblem `json:"problems"`
	}{Hooks: listHooks(set, problems), Problems: []listedProblem{}}
	for _, p := range problems {
		doc.Problems = append(doc.Problems, listedProblem{
			File: p.File, Line: p.Line, Col: p.Col, Severity: p.Severity.String(),
			Field: config.ReadablePath(p.Pointer), Message: p.Message, Fix: p.Fix, Text: p.Error(),
			Disarms: p.Disarms,
		})
	}
	enc := jsonplain.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// writeListTable prints one block per file: a heading with the source,
// the path and, for project files, the trust state; then its hooks, in
// columns aligned across all files so the whole list reads as one table.
func writeListTable(w io.Writer, set *config.Set, problems []config.Problem) error {
	hooks := listHooks(set, problems)
	if len(set.Files) == 0 {
		fmt.Fprintln(w, "No hooks files found. Create one with: agenthooks init")
	}
	t := &listTable{header: []string{"STEP", "MATCHER", "TYPE", "TIMEOUT", "FAILCLOSED", "LOOP", "COMMAND"}}
	for _, h := range hooks {
		t.add(listRow(h))
	}
	i := 0
	for n, f := range set.Files {
		if n > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, listHeading(f))
		if len(f.Hooks) == 0 {
			if f.Bridges > 0 {
				fmt.Fprintf(w, "  (no hooks of its own: %d entries that run agenthooks, which runs the hooks listed here)\n", f.Bridges)
			} else {
				fmt.Fprintln(w, "  (no hooks)")
			}
			continue
		}
		t.write(w, "  ", t.header)
		for range f.Hooks {
			t.write(w, "  ", t.rows[i])
			for _, m := range hooks[i].Mistakes {
				fmt.Fprintln(w, "    ! disarmed: "+m)
			}
			i++
		}
	}
	if len(problems) > 0 {
		legend := ""
		if len(config.Disarming(problems)) > 0 {
			legend = "; ! disarms a guard"
		}
		fmt.Fprintf(w, "\n%d problem(s) (agenthooks validate checks them%s):\n", len(problems), legend)
		for _, p := range problems {
			mark := "  "
			if p.Disarms {
				mark = "! "
			}
			fmt.Fprintln(w, mark+p.Error())
		}
	}
	return nil
}

func listHeading(f *config.File) string {
	h := f.Source.String() + "  " + f.Path
	if !f.Source.ProjectLevel() {
		return h
	}
	if f.Trusted {
		return h + "  (trusted)"
	}
	reason := f.TrustReason
	if reason == "" {
		reason = "not trusted"
	}
	return h + "  (untrusted, its hooks do not run: " + reason + ")"
}

func listRow(h listedHook) []string {
	matcher := printable.Line(h.Matcher)
	if matcher == "" {
		matcher = "*"
	}
	timeout := strconv.FormatFloat(h.Timeout, 'f', -1, 64) + "s"
	if h.TimeoutDefault {
		timeout += " (default)"
	}
	failClosed := "no"
	if h.FailClosed {
		failClosed = "yes"
	}
	loop := "-"
	if h.LoopLimit != nil {
		if h.LoopLimit.l.Unlimited {
			loop = "none"
		} else {
			loop = strconv.Itoa(h.LoopLimit.l.N)
		}
	}
	what := h.Command
	if strings.ContainsAny(what, "\t\r\n") || !printable.Safe(what) {
		// One row per hook, whatever the command holds, and no escape
		// sequence of it reaches the terminal.
		what = strconv.Quote(what)
	}
	if h.Type == config.TypePrompt {
		what = "prompt: " + strconv.Quote(listCell(h.Prompt, 60))
		if h.Model != "" {
			what += " (model " + h.Model + ")"
		}
	}
	return []string{h.Step, matcher, h.Type, timeout, failClosed, loop, what}
}

// listCell keeps a table cell on one line and within n characters.
func listCell(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// listTable aligns columns across rows printed in several blocks; the last
// column is not padded.
type listTable struct {
	header []string
	rows   [][]string
	widths []int
}

func (t *listTable) add(row []string) {
	t.rows = append(t.rows, row)
	t.measure(row)
}

func (t *listTable) measure(row []string) {
	if t.widths == nil {
		t.widths = make([]int, len(t.header))
		t.measure(t.header)
	}
	for i, c := range row {
		if n := utf8.RuneCountInString(c); n > t.widths[i] {
			t.widths[i] = n
		}
	}
}

func (t *listTable) write(w io.Writer, indent string, row []string) {
	t.measure(row)
	var b strings.Builder
	b.WriteString(indent)
	for i, c := range row {
		b.WriteString(c)
		if i < len(row)-1 {
			b.WriteString(strings.Repeat(" ", t.widths[i]-utf8.RuneCountInString(c)+2))
		}
	}
	fmt.Fprintln(w, b.String())
}
