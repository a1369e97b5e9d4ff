package cli

import (
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/trust"
)

// The store checks the files hooks run, not only the hooks files.
var _ config.RunFileTrust = (*trust.Store)(nil)

type trustOptions struct {
	io     *IO
	dir    string
	revoke bool
	list   bool
	dryRun bool
	force  bool
}

func newTrustCmd(s *IO) *cobra.Command {
	o := &trustOptions{io: s}
	cmd := &cobra.Command{
		Use:   "trust [DIR]",
		Short: "Trust a workspace's current project hooks and the files they run",
		Long: `Trust lets the project hooks of workspace DIR (default: the current directory) run,
pinned to the SHA-256 of each project hooks file (.cursor/hooks.json, .claude/settings.json,
.claude/settings.local.json), of its .cursor/sandbox.json, and of every file inside DIR that their hooks run or read: each
word of a hook's command that names a file in the workspace (.cursor/hooks/check.sh,
python3 hooks/g.py, agenthooks policy .cursor/policies/p.yaml). When a pinned file changes
(a pull request edits .cursor/hooks/check.sh, say), the hooks that use it stop until you
review it and trust the workspace again.

Before it trusts, it lists what changed since the workspace was last trusted: each file
added, changed or removed, with its old and new hash. --dry-run lists them and trusts nothing.

It refuses a workspace whose hooks hold a mistake that silently disarms a guard (what
agenthooks validate reports as an error: a misspelt step or key, a script that is not
there, a matcher that can never match, a timeout in milliseconds, …), printing each;
--force trusts it anyway.`,
		Example: `  agenthooks trust
  agenthooks trust ~/src/app
  agenthooks trust --dry-run ~/src/app
  agenthooks trust --list
  agenthooks trust --revoke ~/src/app`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErr("trust takes at most one DIR")
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.dir = args[0]
			}
			return o.run()
		},
	}
	cmd.Flags().BoolVar(&o.revoke, "revoke", false, "stop trusting the workspace")
	cmd.Flags().BoolVar(&o.list, "list", false, "list trusted workspaces and their pinned files")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "show what changed since the workspace was trusted, and trust nothing")
	cmd.Flags().BoolVar(&o.force, "force", false, "trust even with mistakes that disarm a guard (validate lists them)")
	return cmd
}

func (o *trustOptions) run() error {
	store, err := trust.Open(trust.DefaultDir(o.io.getenv))
	if err != nil {
		return err
	}
	if o.list {
		for _, w := range store.Roots() {
			fmt.Fprintln(o.io.Out, w.Root)
			for _, f := range w.Files {
				fmt.Fprintf(o.io.Out, "  %s  sha256:%s\n", f.Path, f.SHA256)
			}
		}
		return nil
	}
	root, err := workspaceDir(o.dir)
	if err != nil {
		return err
	}
	if o.revoke {
		if err := store.Revoke(root); err != nil {
			return err
		}
		fmt.Fprintf(o.io.Out, "no longer trusted: %s\n", root)
		return nil
	}
	pins, err := config.ProjectPins(root)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	o.showChanges(store, root, pins)
	if err := o.refuseDisarmed(root); err != nil {
		return err
	}
	if o.dryRun {
		return nil
	}
	if err := store.TrustSums(root, pins); err != nil {
		return err
	}
	fmt.Fprintf(o.io.Out, "trusted: %s\n", root)
	paths := make([]string, 0, len(pins))
	for p := range pins {
		paths = append(paths, p)
	}
	slices.SortFunc(paths, func(a, b string) int { return strings.Compare(shownPath(root, a), shownPath(root, b)) })
	for _, p := range paths {
		sum := pins[p]
		fmt.Fprintf(o.io.Out, "  pinned %s  sha256:%s\n", shownPath(root, p), hex.EncodeToString(sum[:]))
	}
	if len(pins) == 0 {
		fmt.Fprintln(o.io.Out, "  (no project hooks file yet: one added later will need trusting)")
	}
	return nil
}

// showChanges lists how the files differ from the workspace's pins, so
// the user sees what they are about to trust. A workspace never trusted
// shows nothing here: every file is listed as pinned below.
func (o *trustOptions) showChanges(store *trust.Store, root string, pins map[string][32]byte) {
	w, ok := store.Lookup(root)
	if !ok {
		if o.dryRun {
			fmt.Fprintf(o.io.Out, "%s is not trusted yet; trusting it would pin:\n", root)
			for _, c := range store.Diff(root, pins) {
				fmt.Fprintf(o.io.Out, "  %s  sha256:%s%s\n", shownPath(root, c.Path), c.New, sizeOf(c.Path))
			}
		}
		return
	}
	changes := store.Diff(root, pins)
	when := w.Trusted.Local().Format("2006-01-02 15:04")
	if len(changes) == 0 {
		fmt.Fprintf(o.io.Out, "no change since %s was trusted (%s)\n", root, when)
		return
	}
	fmt.Fprintf(o.io.Out, "changed since %s was trusted (%s):\n", root, when)
	for _, c := range changes {
		name := shownPath(root, c.Path)
		switch c.Kind {
		case trust.Added:
			fmt.Fprintf(o.io.Out, "  added    %s  sha256:%s%s\n", name, short(c.New), sizeOf(c.Path))
		case trust.Changed:
			fmt.Fprintf(o.io.Out, "  changed  %s  sha256:%s → %s%s\n", name, short(c.Old), short(c.New), sizeOf(c.Path))
		case trust.Removed:
			fmt.Fprintf(o.io.Out, "  removed  %s  (was sha256:%s; gone, or no hook names it now)\n", name, short(c.Old))
		}
	}
	if !w.RunFiles {
		fmt.Fprintln(o.io.Out, "  (the workspace was trusted when trust pinned only the hooks files: the files its hooks run show as added)")
	}
}

// shownPath is p relative to root when it lies inside it, as the user
// thinks of their workspace; else absolute.
func shownPath(root, p string) string {
	for _, r := range []string{root, evalOr(root)} {
		if rel, err := filepath.Rel(r, p); err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return rel
		}
	}
	return p
}

// evalOr is p with its symlinks resolved, or p when that fails: the store
// names removed files by their resolved path.
func evalOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// short is the first 12 digits of a hash: enough to tell two apart.
func short(sum string) string {
	if len(sum) > 12 {
		return sum[:12] + "…"
	}
	return sum
}

// sizeOf is "  (N bytes)" for an existing file, for a sense of scale.
func sizeOf(p string) string {
	if fi, err := os.Stat(p); err == nil {
		return fmt.Sprintf("  (%d bytes)", fi.Size())
	}
	return ""
}

// refuseDisarmed prints the workspace's mistakes that disarm a guard
// (config.Disarming, the rule validate applies) and refuses to trust it
// while there are any, unless --force (or --dry-run, which trusts
// nothing).
func (o *trustOptions) refuseDisarmed(root string) error {
	bad := config.Disarming(config.ProjectProblems(root, o.io.environ()))
	if len(bad) == 0 {
		return nil
	}
	for _, p := range bad {
		fmt.Fprintln(o.io.Err, p.Error())
	}
	if o.force || o.dryRun {
		return nil
	}
	return fmt.Errorf("trust: not trusted: %d mistake(s) above would disarm a guard; fix them, or run \"agenthooks trust --force %s\" to trust them as they are", len(bad), root)
}
