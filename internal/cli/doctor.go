package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
)

type doctorOptions struct {
	io        *IO
	workspace string
	json      bool
	// staleAfter: a team whose last successful sync is older is stale.
	staleAfter time.Duration
}

// doctorCheck is one thing the doctor looked at.
type doctorCheck struct {
	// Agent is the agent's --agent name; "" for agenthooks' own checks.
	Agent string `json:"agent,omitempty"`
	// Scope is user or project for an agent's wiring and gates.
	Scope string `json:"scope,omitempty"`
	// Check names what was looked at: found (or program, when it is not), wired, gate, binary,
	// workspace-trust, sandbox, team-sync.
	Check string `json:"check"`
	OK    bool   `json:"ok"`
	// Detail says what was found; Fix, for a problem, what to do.
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// doctorReport is the --json output.
type doctorReport struct {
	Version   string        `json:"version"`
	Workspace string        `json:"workspace"`
	OK        bool          `json:"ok"`
	Checks    []doctorCheck `json:"checks"`
}

// newDoctorCmd is `agenthooks doctor`.
func newDoctorCmd(s *IO) *cobra.Command {
	o := &doctorOptions{io: s}
	cmd := &cobra.Command{
		Use:   "doctor [--workspace DIR] [--json]",
		Short: "Check that every agent on this machine really runs agenthooks",
		Long: `Doctor looks at every coding agent it finds (on PATH or where its installer puts it)
and at every agent wired to agenthooks, and checks what decides whether a hook
really runs:

  - the agent runs agenthooks, at user scope and in the workspace (project scope);
  - the agent's own gates are open: Codex trusts the project and has reviewed each
    hook, Copilot CLI trusts the folder (a shut gate makes the agent skip the hooks
    silently, and every action goes through);
  - the agenthooks binary the hooks run exists and is this version;
  - agenthooks trusts the workspace's project hooks (agenthooks trust);
  - the workspace's sandbox (sandbox.json) can be built and enforced here, and
    what it is;
  - each team's hooks were synced, and recently.

Each problem comes with its fix. The exit status is 1 when anything is off.`,
		Example: `  agenthooks doctor`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.workspace, "workspace", "w", "", "the workspace to check; default: the current directory")
	f.BoolVar(&o.json, "json", false, "print one JSON object")
	f.DurationVar(&o.staleAfter, "stale-after", defaultStaleAfter, "a team not synced for longer than this is stale")
	return cmd
}

func (o *doctorOptions) run(ctx context.Context) error {
	root := o.workspace
	if root == "" {
		root = o.io.dir
	}
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("doctor: current directory: %w", err)
		}
		root = wd
	}
	root, err := o.io.abs(root)
	if err != nil {
		return usageErr("--workspace %q: %v", o.workspace, err)
	}
	home := o.io.getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	d := &doctor{ctx: ctx, root: root, home: home, getenv: o.io.getenv, staleAfter: o.staleAfter}
	for _, name := range agents.Install().Names() {
		d.agent(name)
	}
	d.workspaceTrust()
	d.sandbox(o.io.openHost(ctx))
	d.teams()

	rep := doctorReport{Version: version(), Workspace: root, OK: true, Checks: d.checks}
	for _, c := range d.checks {
		rep.OK = rep.OK && c.OK
	}
	if o.json {
		enc := jsonplain.NewEncoder(o.io.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("doctor: %w", err)
		}
	} else {
		o.print(rep)
	}
	if !rep.OK {
		return silentExit(ExitProblems)
	}
	return nil
}

// print writes the report for a person: the checks by agent, each
// problem with its fix under it.
func (o *doctorOptions) print(rep doctorReport) {
	w := o.io.Out
	fmt.Fprintf(w, "agenthooks %s, workspace %s\n", rep.Version, rep.Workspace)
	heading := "\x00"
	problems := 0
	for _, c := range rep.Checks {
		h := "agenthooks"
		if c.Agent != "" {
			h = agents.Install().Title(c.Agent) + " (" + c.Agent + ")"
		}
		if h != heading {
			fmt.Fprintf(w, "\n%s\n", h)
			heading = h
		}
		mark := "ok  "
		if !c.OK {
			mark = "FAIL"
			problems++
		}
		label := c.Check
		if c.Scope != "" {
			label = c.Scope + " scope"
		}
		fmt.Fprintf(w, "  %s  %s: %s\n", mark, label, c.Detail)
		if !c.OK && c.Fix != "" {
			for i, line := range strings.Split(c.Fix, "\n") {
				prefix := "        fix: "
				if i > 0 {
					prefix = "             "
				}
				fmt.Fprintf(w, "%s%s\n", prefix, line)
			}
		}
	}
	if problems == 0 {
		fmt.Fprintln(w, "\nno problems")
		return
	}
	fmt.Fprintf(w, "\n%d problem(s)\n", problems)
}

// displayPath shortens a path under home to ~/….
func displayPath(home, p string) string {
	if home != "" && strings.HasPrefix(p, home+string(filepath.Separator)) {
		return "~" + p[len(home):]
	}
	return p
}
