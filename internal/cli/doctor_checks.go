package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/install"
	"github.com/agenthooks/agenthooks/internal/shellquote"
	"github.com/agenthooks/agenthooks/team/teamsync"
)

// doctor gathers the checks of one run.
type doctor struct {
	ctx        context.Context
	root, home string
	getenv     func(string) string
	staleAfter time.Duration
	checks     []doctorCheck
	// versions caches each binary's version answer.
	versions map[string]doctorCheck
}

func (d *doctor) add(c doctorCheck) { d.checks = append(d.checks, c) }

// agent checks one agent: found, wired at each scope, its gates open,
// the binary its hooks run.
func (d *doctor) agent(name string) {
	base := install.Options{Agent: name, Home: d.home, Getenv: d.getenv, Root: d.root}
	found := agents.Install().Find(base)
	type scoped struct {
		opts install.Options
		st   install.Status
	}
	var wired []scoped
	var files []string
	for _, scope := range []string{install.User, install.Project} {
		o := base
		o.Scope = scope
		st, err := agents.Install().Wiring(o)
		if err != nil {
			d.add(doctorCheck{Agent: name, Scope: scope, Check: "wired", Detail: err.Error(),
				Fix: "fix the file, or move it away and install again"})
			continue
		}
		files = append(files, displayPath(d.home, st.Path))
		if st.Wired {
			wired = append(wired, scoped{o, st})
		}
	}
	if found == "" && len(wired) == 0 {
		return // not on this machine
	}
	if found != "" {
		d.add(doctorCheck{Agent: name, Check: "found", OK: true, Detail: "found at " + found})
	} else {
		d.add(doctorCheck{Agent: name, Check: "program", OK: true,
			Detail: "not installed here (neither on PATH nor where its installer puts it); its settings are wired for when it is"})
	}
	if len(wired) == 0 {
		user := []string{"agenthooks", "install", "--agent", name}
		project := []string{"agenthooks", "install", "--agent", name, "--scope", "project", "--workspace", d.root}
		if agents.Install().HasGates(name) {
			user, project = append(user, "--trust"), append(project, "--trust")
		}
		d.add(doctorCheck{Agent: name, Check: "wired",
			Detail: "no hook of " + agents.Install().Title(name) + " runs agenthooks (" + strings.Join(files, ", ") + "): every action goes unchecked",
			Fix:    shellquote.POSIXCommand(user) + "\n(or, for this workspace only: " + shellquote.POSIXCommand(project) + ")"})
		return
	}
	for _, w := range wired {
		d.add(doctorCheck{Agent: name, Scope: w.opts.Scope, Check: "wired", OK: true,
			Detail: "runs agenthooks (" + displayPath(d.home, w.st.Path) + ")"})
		d.gates(w.opts)
		for _, bin := range w.st.Binaries {
			c := d.binary(bin)
			c.Agent, c.Scope = name, w.opts.Scope
			d.add(c)
		}
	}
}

// gates checks the agent's own gates for one scope.
func (d *doctor) gates(o install.Options) {
	gates, err := agents.Install().Gates(o)
	if err != nil {
		d.add(doctorCheck{Agent: o.Agent, Scope: o.Scope, Check: "gate", Detail: err.Error(),
			Fix: "fix the file named, then run doctor again"})
		return
	}
	if len(gates) == 0 {
		return
	}
	var shut []install.Gate
	for _, g := range gates {
		if !g.Open {
			shut = append(shut, g)
		}
	}
	title := agents.Install().Title(o.Agent)
	if len(shut) == 0 {
		d.add(doctorCheck{Agent: o.Agent, Scope: o.Scope, Check: "gate", OK: true,
			Detail: fmt.Sprintf("%s will run the hooks (%d of its own conditions met)", title, len(gates))})
		return
	}
	var whats, hooks []string
	for _, g := range shut {
		if g.Hook != "" {
			hooks = append(hooks, g.Hook)
		} else {
			whats = append(whats, g.What)
		}
	}
	if len(hooks) > 0 {
		whats = append(whats, fmt.Sprintf("it has reviewed %d hook(s) as they are now (%s)", len(hooks), strings.Join(hooks, ", ")))
	}
	argv := []string{"agenthooks", "install", "--agent", o.Agent, "--scope", o.Scope}
	if o.Scope == install.Project || slices.ContainsFunc(shut, func(g install.Gate) bool { return g.Folder != "" }) {
		// At user scope the workspace names the folder to trust.
		argv = append(argv, "--workspace", o.Root)
	}
	fix := shellquote.POSIXCommand(append(argv, "--trust")) + "\nor set in " + shut[0].File + ":"
	for _, g := range shut {
		fix += "\n  " + strings.ReplaceAll(g.Setting, "\n", "\n  ")
	}
	d.add(doctorCheck{Agent: o.Agent, Scope: o.Scope, Check: "gate",
		Detail: title + " skips the hooks until: " + strings.Join(whats, "; "), Fix: fix})
}

// binary checks that the agenthooks a hook runs exists and is this
// version.
func (d *doctor) binary(bin string) doctorCheck {
	if c, ok := d.versions[bin]; ok {
		return c
	}
	c := d.binaryVersion(bin)
	if d.versions == nil {
		d.versions = map[string]doctorCheck{}
	}
	d.versions[bin] = c
	return c
}

func (d *doctor) binaryVersion(bin string) doctorCheck {
	c := doctorCheck{Check: "binary"}
	reinstall := "agenthooks install again with this binary (or --binary PATH) at each scope it is wired"
	fi, err := os.Stat(bin)
	if err != nil || fi.IsDir() {
		c.Detail = "the hooks run " + bin + ", which does not exist: the agent's hooks fail, and it lets every action through"
		c.Fix = reinstall
		return c
	}
	ctx, cancel := context.WithTimeout(d.ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "version", "--json")
	out, err := cmd.Output()
	var theirs buildInfo
	if err == nil {
		err = json.Unmarshal(out, &theirs)
	}
	if err != nil {
		c.Detail = fmt.Sprintf("the hooks run %s, which does not answer `version --json` (%v)", bin, err)
		c.Fix = reinstall
		return c
	}
	ours := readBuildInfo()
	if theirs.Version != ours.Version || theirs.Commit != ours.Commit {
		c.Detail = fmt.Sprintf("the hooks run %s, version %s%s; this is %s%s", bin, theirs.Version, commitNote(theirs),
			ours.Version, commitNote(ours))
		c.Fix = reinstall + ", or update " + bin
		return c
	}
	c.OK = true
	c.Detail = "the hooks run " + bin + ", this version (" + ours.Version + commitNote(ours) + ")"
	return c
}

func commitNote(b buildInfo) string {
	if len(b.Commit) >= 12 {
		return " " + b.Commit[:12]
	}
	return ""
}

// workspaceTrust checks that agenthooks runs the workspace's project
// hooks.
func (d *doctor) workspaceTrust() {
	eng, closeEngine, err := openEngine(d.ctx, []string{d.root}, config.Skip{})
	if err != nil {
		d.add(doctorCheck{Check: "workspace-trust", Detail: "cannot load the hooks: " + err.Error(),
			Fix: "agenthooks validate, and fix what it reports"})
		return
	}
	defer func() { _ = closeEngine() }()
	project := 0
	for _, f := range eng.Config().Files {
		if !f.Source.ProjectLevel() || len(f.Hooks) == 0 {
			continue
		}
		project++
		if !f.Trusted {
			d.add(doctorCheck{Check: "workspace-trust",
				Detail: "the project hooks of " + f.Path + " do not run: " + f.TrustReason,
				Fix:    "review them, then: " + shellquote.POSIXCommand([]string{"agenthooks", "trust", f.Root})})
			continue
		}
		bad := false
		for _, p := range f.Problems {
			if p.Severity == config.Error {
				bad = true
				d.add(doctorCheck{Check: "workspace-trust", Detail: p.Error(), Fix: p.Fix})
			}
		}
		if !bad {
			d.add(doctorCheck{Check: "workspace-trust", OK: true, Detail: "the project hooks of " + f.Path + " are trusted"})
		}
	}
	if project == 0 {
		d.add(doctorCheck{Check: "workspace-trust", OK: true, Detail: "the workspace has no project hooks"})
	}
}

// teams checks each team folder's last sync.
func (d *doctor) teams() {
	states, err := teamsync.States(d.home)
	if err != nil {
		d.add(doctorCheck{Check: "team-sync", Detail: err.Error(), Fix: "make the folder readable by this user"})
		return
	}
	for _, t := range states {
		name := filepath.Base(t.Folder)
		switch {
		case t.Err != nil:
			d.add(doctorCheck{Check: "team-sync", Detail: t.Err.Error(), Fix: "agenthooks sync --accept"})
		case t.State == nil:
			d.add(doctorCheck{Check: "team-sync", OK: true,
				Detail: name + ": hooks without a sync record (not written by agenthooks sync)"})
		default:
			d.team(name, t.State)
		}
	}
}

func (d *doctor) team(name string, st *teamsync.State) {
	label := name
	if st.TeamName != "" {
		label = fmt.Sprintf("team %q (%s)", st.TeamName, name)
	}
	label += " from " + st.Server
	fix := "agenthooks sync --accept (with AGENTHOOKS_TEAM_SERVER and AGENTHOOKS_TEAM_TOKEN set), " +
		"and keep it current: agenthooks sync --watch"
	switch {
	case !st.Accepted:
		d.add(doctorCheck{Check: "team-sync", Detail: label + ": the team's hooks were never accepted, so none run", Fix: fix})
	case st.LastSuccess.IsZero():
		d.add(doctorCheck{Check: "team-sync", Detail: label + ": never synced successfully", Fix: fix})
	case time.Since(st.LastSuccess) > d.staleAfter:
		d.add(doctorCheck{Check: "team-sync",
			Detail: fmt.Sprintf("%s: last synced %s ago (revision %d): the team's hooks may be out of date",
				label, time.Since(st.LastSuccess).Round(time.Minute), st.Revision),
			Fix: fix})
	default:
		d.add(doctorCheck{Check: "team-sync", OK: true,
			Detail: fmt.Sprintf("%s: synced %s ago, revision %d", label, time.Since(st.LastSuccess).Round(time.Second), st.Revision)})
	}
}
