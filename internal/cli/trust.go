package cli

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/proc"
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
	// yes trusts without asking on a terminal; force trusts despite
	// validate's errors.
	yes, force bool
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

Before it trusts, it shows what it is about to trust: the hooks that will run (list's
table: step, matcher, command, failClosed), each file it pins marked added, changed,
unchanged or removed since the workspace was last trusted, with its old and new hash,
and every error and warning validate finds in them. On a terminal it then asks; a
validate error refuses the trust until it is fixed (or --force). --dry-run shows all
of it and trusts nothing.

A validate error includes every mistake that silently disarms a guard (a misspelt step or
key, a script that is not there, a matcher that can never match, a timeout in milliseconds).`,
		Example: `  agenthooks trust .`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usageErr("trust takes at most one DIR")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.dir = args[0]
			}
			return o.run(cmd.Context())
		},
	}
	cmd.Flags().BoolVar(&o.revoke, "revoke", false, "stop trusting the workspace")
	cmd.Flags().BoolVar(&o.list, "list", false, "list trusted workspaces and their pinned files")
	cmd.Flags().BoolVar(&o.dryRun, "dry-run", false, "show the hooks, the files and validate's findings, and trust nothing")
	cmd.Flags().BoolVarP(&o.yes, "yes", "y", false, "do not ask on a terminal")
	cmd.Flags().BoolVar(&o.force, "force", false, "trust even when validate finds errors in the workspace's hooks")
	return cmd
}

func (o *trustOptions) run(ctx context.Context) error {
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
	pins, err := agents.Sources().ProjectPins(root)
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	preview := previewTrust(o.io, root)
	preview.writeHooks(o.io.Out)
	marks := o.showChanges(store, root, pins)
	preview.writeProblems(o.io.Out)
	if o.dryRun {
		return nil
	}
	if preview.errors > 0 && !o.force {
		fmt.Fprintf(o.io.Err, "agenthooks: trust refused: validate found %d error(s) in %s's hooks (above): fix them and run trust again, or trust anyway with --force\n", preview.errors, root)
		return silentExit(ExitProblems)
	}
	if ok, err := o.confirm(ctx, root); err != nil || !ok {
		if err == nil {
			fmt.Fprintf(o.io.Out, "not trusted: %s (nothing changed)\n", root)
		}
		return err
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
		fmt.Fprintf(o.io.Out, "  pinned %s  sha256:%s  %s\n", shownPath(root, p), hex.EncodeToString(sum[:]), marks[p])
	}
	if len(pins) == 0 {
		fmt.Fprintln(o.io.Out, "  (no project hooks file yet: one added later will need trusting)")
	}
	return nil
}

// showChanges lists how the files differ from the workspace's pins, so
// the user sees what they are about to trust, and returns each pinned
// file's mark (added, changed, unchanged). A workspace never trusted
// shows nothing here but on a dry run: every file is listed as pinned
// below, added.
func (o *trustOptions) showChanges(store *trust.Store, root string, pins map[string][32]byte) map[string]trust.ChangeKind {
	marks := make(map[string]trust.ChangeKind, len(pins))
	for p := range pins {
		marks[p] = unchanged
	}
	changes := store.Diff(root, pins)
	for _, c := range changes {
		if _, ok := pins[c.Path]; ok {
			marks[c.Path] = c.Kind
		}
	}
	w, ok := store.Lookup(root)
	if !ok {
		if o.dryRun {
			fmt.Fprintf(o.io.Out, "%s is not trusted yet; trusting it would pin:\n", root)
			for _, c := range changes {
				fmt.Fprintf(o.io.Out, "  %s  sha256:%s%s\n", shownPath(root, c.Path), c.New, sizeOf(c.Path))
			}
		}
		return marks
	}
	when := w.Trusted.Local().Format("2006-01-02 15:04")
	if len(changes) == 0 {
		fmt.Fprintf(o.io.Out, "no change since %s was trusted (%s)\n", root, when)
		return marks
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
	for _, p := range slices.Sorted(maps.Keys(marks)) {
		if marks[p] == unchanged {
			fmt.Fprintf(o.io.Out, "  unchanged  %s%s\n", shownPath(root, p), sizeOf(p))
		}
	}
	if !w.RunFiles {
		fmt.Fprintln(o.io.Out, "  (the workspace was trusted when trust pinned only the hooks files: the files its hooks run show as added)")
	}
	return marks
}

// unchanged marks a pinned file whose content is the one trusted.
const unchanged trust.ChangeKind = "unchanged"

// confirm asks on a terminal before trusting, unless --yes; with no
// terminal (a script, a pipe) it trusts as told.
func (o *trustOptions) confirm(ctx context.Context, root string) (bool, error) {
	if o.yes || !proc.IsTerminal(o.io.In) {
		return true, nil
	}
	t, err := proc.OpenTerminal()
	if err != nil {
		return true, nil // no controlling terminal after all: as if piped
	}
	defer t.Close()
	return t.Ask(ctx, fmt.Sprintf("Trust %s: let these hooks run, pinned to these files? [y/N] ", root))
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
