package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/printable"
	"github.com/agenthooks/agenthooks/internal/proc"
	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

type pushOptions struct {
	*teamOptions
	team    string
	yes     bool
	dryRun  bool
	systems []string
}

func newAPIPushCmd(o *teamOptions) *cobra.Command {
	p := &pushOptions{teamOptions: o}
	cmd := &cobra.Command{
		Use:   "push --team TEAM [PATH]",
		Short: "Make a workspace's hooks (hooks.json and the scripts they run) the team's, as one revision",
		Long: `Push reads a workspace's .cursor/hooks.json (PATH is a workspace, default the current
folder, or a hooks file) and the script each hook runs, and makes them the team's whole
set of hooks, as one revision. It first shows the difference with the team's current
set (hooks added, changed and removed, with a diff of each changed script) and asks on
a terminal; --yes pushes without asking.

Hooks are matched to the team's by script name. Each hook must run one script of the
workspace (".cursor/hooks/check.sh", or "bash .cursor/hooks/check.sh" for a script
that starts with #!): members run it from their team folder as ./check.sh, which is
the command the team's manifest gets.`,
		Args: cobra.MaximumNArgs(1),
		RunE: o.run(func(cmd *cobra.Command, c adminClient, args []string) error {
			path := "."
			if len(args) == 1 {
				path = args[0]
			}
			return p.run(cmd.Context(), c, path)
		}),
	}
	f := cmd.Flags()
	f.StringVar(&p.team, "team", "", "the team whose hooks these become, by name or id (required)")
	f.BoolVar(&p.yes, "yes", false, "push without asking")
	f.BoolVar(&p.dryRun, "dry-run", false, "show the difference; push nothing")
	f.StringSliceVar(&p.systems, "os", nil, "the systems the hooks are for: Linux, Macintosh, Windows (default: all)")
	_ = cmd.MarkFlagRequired("team")
	return cmd
}

// pushChange is one hook the push adds, changes or removes.
type pushChange struct {
	Change     string   `json:"change"` // added, changed, removed
	Step       string   `json:"step"`
	ScriptName string   `json:"scriptName"`
	Fields     []string `json:"fields,omitempty"` // what changed, for a changed hook
	Diff       string   `json:"diff,omitempty"`   // of the script
}

// pushResult is what --json prints.
type pushResult struct {
	Team         string       `json:"team"`
	TeamID       int64        `json:"teamId"`
	FromRevision int64        `json:"fromRevision"`
	Revision     int64        `json:"revision"`
	Changes      []pushChange `json:"changes"`
	Pushed       bool         `json:"pushed"`
}

func (p *pushOptions) run(ctx context.Context, c adminClient, path string) error {
	hooks, err := p.readWorkspace(path)
	if err != nil {
		return err
	}
	id, err := p.teamID(ctx, c, p.team)
	if err != nil {
		return err
	}
	current, err := call(ctx, c.ListHooks, &teamv1.ListHooksRequest{TeamId: id})
	if err != nil {
		return err
	}
	res := pushResult{Team: p.team, TeamID: id, FromRevision: current.GetRevision(), Revision: current.GetRevision(),
		Changes: pushDiff(current.GetHooks(), hooks, current.GetRevision())}
	if !p.json {
		p.show(res)
	}
	if len(res.Changes) == 0 || p.dryRun {
		if p.json {
			return printValue(p.io.Out, res)
		}
		return nil
	}
	if !p.yes {
		ok, err := p.ask(ctx, len(res.Changes))
		if err != nil {
			return err
		}
		if !ok {
			if p.json {
				_ = printValue(p.io.Out, res)
			}
			return fmt.Errorf("not pushed: %s", p.whyNot())
		}
	}
	out, err := call(ctx, c.SetTeamHooks, &teamv1.SetTeamHooksRequest{TeamId: id, Hooks: hooks, ExpectedRevision: current.GetRevision()})
	if err != nil {
		return err
	}
	res.Revision, res.Pushed = out.GetRevision(), out.GetChanged()
	if p.json {
		return printValue(p.io.Out, res)
	}
	fmt.Fprintf(p.io.Out, "pushed: team %q is at revision %d (%d hooks)\n", p.team, out.GetRevision(), len(out.GetHooks()))
	return nil
}

// whyNot says why a push without --yes went no further.
func (p *pushOptions) whyNot() string {
	if proc.IsTerminal(p.io.In) {
		return "the answer was no"
	}
	return "no terminal to ask on: review the difference above and push with --yes"
}

// ask asks on the terminal whether to push.
func (p *pushOptions) ask(ctx context.Context, n int) (bool, error) {
	if !proc.IsTerminal(p.io.In) {
		return false, nil
	}
	t, err := proc.OpenTerminal()
	if err != nil {
		return false, nil
	}
	defer t.Close()
	return t.Ask(ctx, fmt.Sprintf("Push these %d changes to team %q as one revision? [y/N] ", n, p.team))
}

// show prints the difference for a person.
func (p *pushOptions) show(res pushResult) {
	w := p.io.Out
	if len(res.Changes) == 0 {
		fmt.Fprintf(w, "team %q (revision %d) already has these hooks: nothing to push\n", res.Team, res.FromRevision)
		return
	}
	fmt.Fprintf(w, "team %q, revision %d → %d:\n", res.Team, res.FromRevision, res.FromRevision+1)
	for _, ch := range res.Changes {
		line := fmt.Sprintf("  %-8s %s %s", ch.Change, printable.Line(ch.Step), printable.Line(ch.ScriptName))
		if len(ch.Fields) > 0 {
			line += " (" + strings.Join(ch.Fields, ", ") + ")"
		}
		fmt.Fprintln(w, line)
	}
	for _, ch := range res.Changes {
		if ch.Diff != "" {
			fmt.Fprint(w, "\n"+printable.Text(ch.Diff))
		}
	}
}

// pushDiff compares the team's hooks with the workspace's, by script name.
func pushDiff(old, hooks []*teamv1.TeamHook, rev int64) []pushChange {
	byKey := map[string]*teamv1.TeamHook{}
	for _, h := range old {
		byKey[team.ScriptNameKey(h.GetScriptName())] = h
	}
	var out []pushChange
	seen := map[string]bool{}
	for _, h := range hooks {
		key := team.ScriptNameKey(h.GetScriptName())
		seen[key] = true
		was, ok := byKey[key]
		if !ok {
			out = append(out, pushChange{Change: "added", Step: h.GetHookStep(), ScriptName: h.GetScriptName(),
				Diff: unifiedDiff("/dev/null", h.GetScriptName()+" (this workspace)", "", h.GetScriptContent())})
			continue
		}
		var fields []string
		add := func(name string, changed bool, from, to any) {
			if changed {
				fields = append(fields, fmt.Sprintf("%s %v → %v", name, from, to))
			}
		}
		add("step", was.GetHookStep() != h.GetHookStep(), was.GetHookStep(), h.GetHookStep())
		add("script name", was.GetScriptName() != h.GetScriptName(), was.GetScriptName(), h.GetScriptName())
		add("matcher", was.GetMatcher() != h.GetMatcher(), fmt.Sprintf("%q", was.GetMatcher()), fmt.Sprintf("%q", h.GetMatcher()))
		add("timeout", was.GetTimeoutSeconds() != h.GetTimeoutSeconds(), was.GetTimeoutSeconds(), h.GetTimeoutSeconds())
		add("failClosed", was.GetFailClosed() != h.GetFailClosed(), was.GetFailClosed(), h.GetFailClosed())
		add("active", was.GetIsActive() != h.GetIsActive(), was.GetIsActive(), h.GetIsActive())
		add("systems", !slices.Equal(was.GetOperatingSystems(), h.GetOperatingSystems()), systemsText(was.GetOperatingSystems()), systemsText(h.GetOperatingSystems()))
		diff := unifiedDiff(fmt.Sprintf("%s (revision %d)", was.GetScriptName(), rev), h.GetScriptName()+" (this workspace)", was.GetScriptContent(), h.GetScriptContent())
		if diff != "" {
			fields = append(fields, "script")
		}
		if len(fields) > 0 {
			out = append(out, pushChange{Change: "changed", Step: h.GetHookStep(), ScriptName: h.GetScriptName(), Fields: fields, Diff: diff})
		}
	}
	for _, h := range old {
		if !seen[team.ScriptNameKey(h.GetScriptName())] {
			out = append(out, pushChange{Change: "removed", Step: h.GetHookStep(), ScriptName: h.GetScriptName()})
		}
	}
	return out
}

func systemsText(s []string) string {
	if len(s) == 0 {
		return "all"
	}
	return strings.Join(s, ",")
}

// readWorkspace reads the hooks file at path (a workspace or the file)
// and the script each hook runs, as the team's hooks.
func (p *pushOptions) readWorkspace(path string) ([]*teamv1.TeamHook, error) {
	abs, err := p.io.abs(path)
	if err != nil {
		return nil, usageErr("%s: %v", path, err)
	}
	file, root := abs, filepath.Dir(abs)
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		file, root = filepath.Join(abs, ".cursor", "hooks.json"), abs
	} else if filepath.Base(root) == ".cursor" {
		root = filepath.Dir(root)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, usageErr("read the hooks to push: %v", err)
	}
	f := config.ParseFile(file, data, config.Project, root, root)
	var problems []string
	for _, pr := range f.Problems {
		if pr.Severity == config.Error {
			problems = append(problems, pr.Error())
		}
	}
	if len(problems) > 0 {
		return nil, dataErr("%s has errors; fix them first (agenthooks validate):\n  %s", file, strings.Join(problems, "\n  "))
	}
	if len(f.Hooks) == 0 {
		return nil, dataErr("%s has no hooks to push", file)
	}
	for _, s := range p.systems {
		if s != team.Linux && s != team.Macintosh && s != team.Windows {
			return nil, usageErr("--os takes %s, %s or %s, got %q", team.Linux, team.Macintosh, team.Windows, s)
		}
	}
	var out []*teamv1.TeamHook
	scripts := map[string]string{} // script name key → the hook that runs it
	for _, h := range f.Hooks {
		label := fmt.Sprintf("%s: hooks.%s[%d]", file, h.Step, h.Index)
		script, content, err := hookScript(h, root)
		if err != nil {
			return nil, dataErr("%s: %v", label, err)
		}
		name := filepath.Base(script)
		if other, dup := scripts[team.ScriptNameKey(name)]; dup {
			return nil, dataErr("%s runs %s, as %s does: each team hook needs its own script file (copy it under another name)", label, name, other)
		}
		scripts[team.ScriptNameKey(name)] = label
		var timeout float64
		if h.Timeout > 0 {
			timeout = h.Timeout.Seconds()
		}
		out = append(out, &teamv1.TeamHook{HookStep: string(h.Step), ScriptName: name, ScriptContent: string(content),
			Matcher: h.Matcher, TimeoutSeconds: timeout, FailClosed: h.FailClosed, IsActive: true, OperatingSystems: p.systems})
	}
	return out, nil
}

// hookScript finds the one workspace script a hook runs and reads it.
func hookScript(h *config.Hook, root string) (string, []byte, error) {
	if h.Type == config.TypePrompt {
		return "", nil, errors.New("is a prompt hook: a team hook runs a script")
	}
	var files []string // the workspace's files the command names that are there
	for _, f := range config.CommandFiles(h.Command, h.Dir, root, h.ProjectDirVars()) {
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() {
			files = append(files, f)
		}
	}
	if len(files) != 1 {
		return "", nil, fmt.Errorf("runs %q, which names %d files of the workspace: a team hook runs one script, as ./NAME from the team's folder", h.Command, len(files))
	}
	content, err := os.ReadFile(files[0])
	if err != nil {
		return "", nil, fmt.Errorf("its script: %w", err)
	}
	words := strings.Fields(h.Command)
	switch {
	case len(words) == 1:
	case len(words) == 2 && bytes.HasPrefix(content, []byte("#!")):
		// "bash x.sh": the member runs ./x.sh through its #! line.
	default:
		return "", nil, fmt.Errorf("runs %q: a team hook runs its script alone, as ./NAME (through its #! line); "+
			"put the interpreter in the script's #! line and its arguments in the script", h.Command)
	}
	return files[0], content, nil
}
