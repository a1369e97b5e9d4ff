package cli

import (
	"slices"

	"github.com/spf13/cobra"
)

// docsURL is where the design record lives for someone who has the
// binary and not the repository.
const docsURL = "https://github.com/agenthooks/agenthooks/blob/main/docs/"

// rootLong is what `agenthooks` alone and `agenthooks --help` say first.
const rootLong = `agenthooks runs coding agents' hooks: Cursor's hooks.json (enterprise, team,
project, user), for Cursor and, through their own hook settings, for Claude Code,
Codex, Gemini CLI, Copilot CLI and OpenCode. For every step an agent takes it runs
the hooks that match and hands back one decision.

New here? Start with:

  agenthooks setup        wire every agent on this machine, then check it (doctor)
  agenthooks init         a first hook to edit
  agenthooks test beforeShellExecution --command 'rm -rf /'    would it be blocked?

Documentation: ` + docsURL + `cli.md`

// verbGroups are the headings `agenthooks --help` lists the verbs under,
// in order, and the verbs of each.
var verbGroups = []struct {
	id, title string
	verbs     []string
}{
	{"start", "Start here:", []string{"setup", "demo", "init", "doctor"}},
	{"everyday", "Everyday:", []string{"test", "trust", "list", "log", "validate", "exec"}},
	{"agents", "Agents:", []string{"install", "uninstall", "export", "run", "contract"}},
	{"team", "Team:", []string{"sync", "serve", "health"}},
	{"internals", "Internals:", []string{"policy", "engine", "settings", "schema", "version", "completion", "help"}},
}

// init keeps verbs in the order they are added: groupVerbs adds them in
// the order of verbGroups, the most useful first.
func init() { cobra.EnableCommandSorting = false }

// groupVerbs puts each of root's verbs under its heading; a verb in no
// group is listed under the last.
func groupVerbs(root *cobra.Command) {
	of := map[string]string{}
	for _, g := range verbGroups {
		root.AddGroup(&cobra.Group{ID: g.id, Title: g.title})
		for _, v := range g.verbs {
			of[v] = g.id
		}
	}
	last := verbGroups[len(verbGroups)-1].id
	root.SetHelpCommandGroupID(last)
	root.SetCompletionCommandGroupID(last)
	cmds := root.Commands()
	rank := func(c *cobra.Command) int {
		n := 0
		for _, g := range verbGroups {
			for _, v := range g.verbs {
				if v == c.Name() {
					return n
				}
				n++
			}
		}
		return n
	}
	slices.SortStableFunc(cmds, func(a, b *cobra.Command) int { return rank(a) - rank(b) })
	root.RemoveCommand(cmds...)
	for _, c := range cmds {
		if id, ok := of[c.Name()]; ok {
			c.GroupID = id
		} else {
			c.GroupID = last
		}
		root.AddCommand(c)
	}
}
