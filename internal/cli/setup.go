package cli

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/install"
	"github.com/agenthooks/agenthooks/internal/proc"
	"github.com/agenthooks/agenthooks/trust"
)

type setupOptions struct {
	io *IO
	// yes applies without asking; undo takes back what setup did.
	yes, undo bool
	// gates opens the agents' own gates for the workspace; trustWS trusts
	// the workspace's project hooks after showing them.
	gates, trustWS, trustSet bool
	workspace, binary        string
}

// newSetupCmd is `agenthooks setup`.
func newSetupCmd(s *IO) *cobra.Command {
	o := &setupOptions{io: s}
	cmd := &cobra.Command{
		Use:   "setup [--yes] [--undo] [-w DIR]",
		Short: "Wire every agent on this machine to agenthooks, in one step",
		Long: `Setup finds every coding agent installed on this machine (Claude Code, Codex, Gemini
CLI, Copilot CLI, OpenCode: on PATH or where their installers put them), shows what it
will change for each (the settings file, the events, the agent's own gates it opens for
the workspace) and, once you say yes (a terminal question, or --yes), wires each at
user scope, as agenthooks install --agent NAME --trust would. When the workspace (the
current directory, or -w DIR) has project hooks not yet trusted, it shows them as
agenthooks trust does and offers to trust them (--trust to do so without asking).
It ends with agenthooks doctor's verdict, and doctor's exit status.

Nothing is changed without consent. Running it again changes nothing and says so.
agenthooks setup --undo takes back exactly what setup changed: each agent's settings
file as it was, byte for byte, the gates it opened and the trust it gave.`,
		Example: `  agenthooks setup --yes`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.trustSet = cmd.Flags().Changed("trust")
			return o.run(cmd.Context())
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&o.yes, "yes", "y", false, "apply without asking (for scripts)")
	f.BoolVar(&o.undo, "undo", false, "take back what setup changed, exactly")
	f.BoolVar(&o.gates, "gates", true, "open each agent's own gates (folder trust, hook reviews) for the workspace")
	f.BoolVar(&o.trustWS, "trust", false, "trust the workspace's project hooks after showing them (default: ask on a terminal)")
	f.StringVarP(&o.workspace, "workspace", "w", "", "the workspace whose gates are opened and whose hooks are offered for trust; default: the current directory")
	f.StringVar(&o.binary, "binary", "", "the agenthooks binary the agents run; default: this one")
	return cmd
}

// setupAgent is one agent found, and what setup would do to it.
type setupAgent struct {
	name, found string
	opts        install.Options
	path        string
	// wire: the hooks are to be written; exists: the file is there.
	wire, exists bool
	// shut are the gates shut now (of an agent already wired); openGates:
	// setup opens the agent's gates.
	shut      []install.Gate
	openGates bool
}

func (o *setupOptions) run(ctx context.Context) error {
	root, err := workspaceDir(o.workspace)
	if err != nil {
		return err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("setup: home folder: %w", err)
	}
	rec, err := readSetupRecord(setupRecordPath(o.io.getenv))
	if err != nil {
		return err
	}
	if o.undo {
		return o.runUndo(rec, home)
	}
	bin, err := (&installOptions{io: o.io, binary: o.binary}).binaryPath()
	if err != nil {
		return err
	}

	plan, missing := o.plan(root, home, bin)
	store, err := trust.Open(trust.DefaultDir(o.io.getenv))
	if err != nil {
		return err
	}
	offerTrust, err := workspaceNeedsTrust(store, root)
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	changes := o.printPlan(home, bin, plan, missing)
	if changes == 0 && !offerTrust {
		fmt.Fprintln(o.io.Out, "nothing to change: every agent found runs this agenthooks, its gates open")
		return o.doctor(ctx, root)
	}
	if changes > 0 {
		ok, err := o.consent(ctx, "Make these changes? [y/N] ")
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintln(o.io.Out, "nothing changed")
			return silentExit(ExitProblems)
		}
		if err := o.apply(plan, rec); err != nil {
			return err
		}
	}
	if offerTrust {
		if err := o.offerTrust(ctx, store, root, rec); err != nil {
			return err
		}
	}
	return o.doctor(ctx, root)
}

// plan looks at every agent: found on this machine or already wired, and
// what wiring it to bin at user scope would change.
func (o *setupOptions) plan(root, home, bin string) (plan []*setupAgent, missing []string) {
	reg := agents.Install()
	for _, name := range reg.Names() {
		opts := install.Options{Agent: name, Scope: install.User, Home: home, Root: root, Binary: bin}
		found := reg.Find(opts)
		st, err := reg.Wiring(opts)
		if found == "" && (err != nil || !st.Wired) {
			missing = append(missing, reg.Title(name))
			continue
		}
		a := &setupAgent{name: name, found: found, opts: opts, path: st.Path}
		a.wire, a.exists, err = reg.Pending(opts)
		if err != nil {
			fmt.Fprintf(o.io.Err, "agenthooks: %s: %v: left as it is\n", reg.Title(name), err)
			continue
		}
		if o.gates && reg.HasGates(name) {
			if a.wire {
				a.openGates = true
			} else if gates, err := reg.Gates(opts); err == nil {
				a.shut = shutGates(gates)
				a.openGates = len(a.shut) > 0
			}
		}
		plan = append(plan, a)
	}
	return plan, missing
}

// printPlan shows what setup will do, agent by agent, and returns how
// many agents it changes.
func (o *setupOptions) printPlan(home, bin string, plan []*setupAgent, missing []string) int {
	w := o.io.Out
	reg := agents.Install()
	changes := 0
	fmt.Fprintf(w, "agenthooks setup: every agent found, wired at user scope to %s\n", displayPath(home, bin))
	for _, a := range plan {
		where := "found at " + displayPath(home, a.found)
		if a.found == "" {
			where = "not installed, but its settings run agenthooks"
		}
		fmt.Fprintf(w, "\n%s (%s), %s\n", reg.Title(a.name), a.name, where)
		if !a.wire && !a.openGates {
			fmt.Fprintf(w, "  already wired in %s: nothing to change\n", displayPath(home, a.path))
			continue
		}
		changes++
		if a.wire {
			if a.exists {
				fmt.Fprintf(w, "  update %s: agenthooks' hooks added, every other byte kept; the file as it is now saved as %s\n",
					displayPath(home, a.path), displayPath(home, a.path+install.BackupSuffix))
			} else {
				fmt.Fprintf(w, "  create %s\n", displayPath(home, a.path))
			}
			if events := reg.Events(a.name); len(events) > 0 {
				fmt.Fprintf(w, "  events: %s\n", strings.Join(events, ", "))
			} else {
				fmt.Fprintln(w, "  events: every one its plugin offers")
			}
			fmt.Fprintf(w, "  each runs: %s run --from %s\n", displayPath(home, bin), a.name)
		}
		if a.openGates {
			if len(a.shut) > 0 {
				for _, g := range a.shut {
					fmt.Fprintf(w, "  open its gate: %s (%s)\n", g.What, displayPath(home, g.File))
				}
			} else {
				fmt.Fprintf(w, "  open its own gates for %s (the trust and hook reviews it needs before it runs hooks)\n", a.opts.Root)
			}
		}
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "\nnot found on this machine: %s\n", strings.Join(missing, ", "))
	}
	fmt.Fprintln(w)
	return changes
}

// consent asks once on a terminal, unless --yes. With no terminal and no
// --yes nothing is changed.
func (o *setupOptions) consent(ctx context.Context, question string) (bool, error) {
	if o.yes {
		return true, nil
	}
	if !proc.IsTerminal(o.io.In) {
		fmt.Fprintln(o.io.Out, "no terminal to ask on: run agenthooks setup --yes to make these changes")
		return false, nil
	}
	t, err := proc.OpenTerminal()
	if err != nil {
		fmt.Fprintln(o.io.Out, "no terminal to ask on: run agenthooks setup --yes to make these changes")
		return false, nil
	}
	defer t.Close()
	return t.Ask(ctx, question)
}

// apply wires the agents and opens their gates, recording each change.
func (o *setupOptions) apply(plan []*setupAgent, rec *setupRecord) error {
	reg := agents.Install()
	path := setupRecordPath(o.io.getenv)
	for _, a := range plan {
		if !a.wire && !a.openGates {
			continue
		}
		entry := rec.entry(a.name)
		entry.Binary = a.opts.Binary
		if a.wire {
			ch, err := reg.Install(a.opts)
			if err != nil {
				return fmt.Errorf("setup: %s: %w", reg.Title(a.name), err)
			}
			fmt.Fprintf(o.io.Out, "%s: %s %s\n", a.name, ch.Action, ch.Path)
			entry.Wired = entry.Wired || ch.Action == "created" || ch.Action == "updated"
		}
		if a.openGates {
			before, _ := reg.Gates(a.opts)
			if len(shutGates(before)) > 0 {
				after, err := reg.Trust(a.opts)
				if err != nil {
					return fmt.Errorf("setup: %s's gates: %w", reg.Title(a.name), err)
				}
				entry.Gates, entry.Root = true, a.opts.Root
				for _, g := range shutGates(before) {
					fmt.Fprintf(o.io.Out, "  opened: %s (%s)\n", g.What, g.File)
				}
				for _, g := range shutGates(after) {
					fmt.Fprintf(o.io.Out, "  still shut: %s: %s\n", g.What, g.Command)
				}
			}
		}
		// Saved after each agent, so an error part way leaves an undo
		// that covers what was done.
		if err := rec.save(path); err != nil {
			return err
		}
	}
	return nil
}

// workspaceNeedsTrust reports whether root has project hooks that are
// not trusted as they are now.
func workspaceNeedsTrust(store *trust.Store, root string) (bool, error) {
	pins, err := agents.Sources().ProjectPins(root)
	if err != nil || len(pins) == 0 {
		return false, err
	}
	if _, ok := store.Lookup(root); !ok {
		return true, nil
	}
	return len(store.Diff(root, pins)) > 0, nil
}

// offerTrust shows the workspace's project hooks as trust does and
// trusts them on a yes (or --trust), refusing on validate's errors.
func (o *setupOptions) offerTrust(ctx context.Context, store *trust.Store, root string, rec *setupRecord) error {
	_, wasTrusted := store.Lookup(root)
	t := &trustOptions{io: o.io, dir: root, dryRun: true}
	fmt.Fprintf(o.io.Out, "\n%s has project hooks that agenthooks does not run until you trust them:\n", root)
	if err := t.run(ctx); err != nil {
		return err
	}
	yes := o.trustWS
	if !o.trustSet {
		if o.yes || !proc.IsTerminal(o.io.In) {
			fmt.Fprintf(o.io.Out, "not trusted: after a review, run agenthooks trust %s (or setup --trust)\n", root)
			return nil
		}
		ok, err := o.consent(ctx, fmt.Sprintf("Trust %s: let these hooks run? [y/N] ", root))
		if err != nil {
			return err
		}
		yes = ok
	}
	if !yes {
		fmt.Fprintf(o.io.Out, "not trusted: %s\n", root)
		return nil
	}
	t.dryRun, t.yes = false, true
	if err := t.run(ctx); err != nil {
		return err
	}
	if !wasTrusted {
		rec.Trusted = appendNew(rec.Trusted, root)
		return rec.save(setupRecordPath(o.io.getenv))
	}
	return nil
}

// doctor ends setup with the doctor's verdict on the workspace.
func (o *setupOptions) doctor(ctx context.Context, root string) error {
	fmt.Fprintln(o.io.Out, "\nagenthooks doctor:")
	d := &doctorOptions{io: o.io, workspace: root, staleAfter: defaultStaleAfter}
	return d.run(ctx)
}

// runUndo takes back what the record says setup did, newest first.
func (o *setupOptions) runUndo(rec *setupRecord, home string) error {
	if len(rec.Installs) == 0 && len(rec.Trusted) == 0 {
		fmt.Fprintln(o.io.Out, "setup has changed nothing here: nothing to undo")
		return nil
	}
	reg := agents.Install()
	path := setupRecordPath(o.io.getenv)
	for i := len(rec.Installs) - 1; i >= 0; i-- {
		e := rec.Installs[i]
		opts := install.Options{Agent: e.Agent, Scope: install.User, Home: home, Root: e.Root, Binary: e.Binary}
		switch {
		case e.Wired:
			ch, err := reg.Uninstall(opts)
			if err != nil {
				return fmt.Errorf("setup --undo: %s: %w", reg.Title(e.Agent), err)
			}
			fmt.Fprintf(o.io.Out, "%s: %s %s\n", e.Agent, ch.Action, ch.Path)
			if ch.Backup != "" {
				fmt.Fprintf(o.io.Out, "  the file was edited since setup: only agenthooks' hooks were taken out; its backup stays at %s\n", ch.Backup)
			}
			if ch.Untrusted {
				fmt.Fprintf(o.io.Out, "  took back the gates setup had opened in %s's settings\n", reg.Title(e.Agent))
			}
		case e.Gates:
			if err := reg.Untrust(opts); err != nil {
				return fmt.Errorf("setup --undo: %s's gates: %w", reg.Title(e.Agent), err)
			}
			fmt.Fprintf(o.io.Out, "%s: took back the gates setup had opened\n", e.Agent)
		}
		rec.Installs = rec.Installs[:i]
		if err := rec.save(path); err != nil {
			return err
		}
	}
	if len(rec.Trusted) > 0 {
		store, err := trust.Open(trust.DefaultDir(o.io.getenv))
		if err != nil {
			return err
		}
		for _, root := range rec.Trusted {
			if err := store.Revoke(root); err != nil {
				return err
			}
			fmt.Fprintf(o.io.Out, "no longer trusted: %s\n", root)
		}
		rec.Trusted = nil
	}
	return rec.save(path)
}
