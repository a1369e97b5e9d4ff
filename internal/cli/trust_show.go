package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/sandbox"
)

// trustAll is a config.Trust that trusts every file: the workspace's
// hooks as they would run once trusted, so the preview lists them as
// running and leaves out the "not trusted" findings trusting would end.
type trustAll struct{}

func (trustAll) Check(string, string, []byte) (bool, string) { return true, "" }

// trustPreview is what trusting a workspace would let run: its project
// hooks files, their hooks, and every finding validate has about them.
type trustPreview struct {
	root     string
	files    []*config.File
	problems []config.Problem
	errors   int
	warnings int
}

// previewTrust loads the workspace's project sources alone (no user,
// team or enterprise file: trust does not cover those) as if trusted, and
// gathers validate's findings about them: each file's problems, what the
// published schema alone finds, programs that are not there, prompt
// hooks with no model, files a hook may run that trust cannot pin by
// themselves, and the project's sandbox.json.
func previewTrust(s *IO, root string) trustPreview {
	p := trustPreview{root: root}
	set := config.Load(config.Locations{
		WorkspaceRoots: []string{root},
		Settings:       agents.Settings(),
		// No enterprise file: a path that cannot exist.
		EnterpriseFile: filepath.Join(root, ".cursor", "hooks.json", "no-enterprise"),
	}, trustAll{})
	var hooks []*config.Hook
	for _, f := range set.Files {
		if !f.Source.ProjectLevel() {
			continue
		}
		p.files = append(p.files, f)
		hooks = append(hooks, f.Hooks...)
		p.problems = append(p.problems, f.Problems...)
		p.problems = append(p.problems, f.SchemaProblems()...)
	}
	p.problems = append(p.problems, config.MissingPrograms(hooks, s.environ())...)
	p.problems = append(p.problems, unsurePins(hooks, func(string) bool { return true })...)
	p.problems = append(p.problems, unreachableModel(hooks, s.getenv)...)
	sb := config.SandboxFileBeside(config.ProjectFile(root))
	if data, err := os.ReadFile(sb); err == nil {
		p.problems = append(p.problems, sandbox.Parse(sb, data, sandbox.Project, root).Problems...)
	}
	for _, pr := range p.problems {
		if pr.Severity == config.Error {
			p.errors++
		} else {
			p.warnings++
		}
	}
	return p
}

// writeHooks prints the hooks that would run, as list's table does, one
// block per file.
func (p trustPreview) writeHooks(w io.Writer) {
	set := &config.Set{Files: p.files}
	for _, f := range p.files {
		set.Hooks = append(set.Hooks, f.Hooks...)
	}
	hooks := listHooks(set, p.problems)
	if len(hooks) == 0 {
		fmt.Fprintf(w, "no project hooks in %s: trusting it lets none run (a hooks file added later needs trusting)\n", p.root)
		return
	}
	fmt.Fprintf(w, "the hooks that will run in %s, once it is trusted\n", p.root)
	t := &listTable{header: []string{"STEP", "MATCHER", "TYPE", "TIMEOUT", "FAILCLOSED", "LOOP", "COMMAND"}}
	for _, h := range hooks {
		t.add(listRow(h))
	}
	i := 0
	for _, f := range p.files {
		if len(f.Hooks) == 0 {
			continue
		}
		fmt.Fprintf(w, "  %s  %s\n", f.Source, shownPath(p.root, f.Path))
		t.write(w, "    ", t.header)
		for range f.Hooks {
			t.write(w, "    ", t.rows[i])
			i++
		}
	}
}

// writeProblems prints validate's findings, or that there are none.
func (p trustPreview) writeProblems(w io.Writer) {
	if len(p.problems) == 0 {
		fmt.Fprintln(w, "validate: no problems")
		return
	}
	fmt.Fprintf(w, "validate: %d error(s), %d warning(s):\n", p.errors, p.warnings)
	for _, pr := range p.problems {
		fmt.Fprintln(w, "  "+pr.Error())
	}
}
