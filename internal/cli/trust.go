package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/trust"
)

// projectFiles are the project-level config files that trust pins,
// relative to a workspace root.
var projectFiles = []string{
	filepath.Join(".cursor", "hooks.json"),
	filepath.Join(".claude", "settings.local.json"),
	filepath.Join(".claude", "settings.json"),
}

type trustOptions struct {
	io     *IO
	dir    string
	revoke bool
	list   bool
}

func init() { registerVerb(newTrustCmd) }

func newTrustCmd(s *IO) *cobra.Command {
	o := &trustOptions{io: s}
	cmd := &cobra.Command{
		Use:   "trust [DIR]",
		Short: "Trust a workspace's current project hooks",
		Long: `Trust lets the project hooks of workspace DIR (default: the current directory) run,
pinned to the SHA-256 of each project hooks file as it is now. When a file changes
(a pull request edits .cursor/hooks.json, say), its hooks stop running until you
review it and trust the workspace again.`,
		Example: `  agenthooks trust
  agenthooks trust ~/src/app
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
	return cmd
}

func (o *trustOptions) run() error {
	store, err := trust.Open(trust.DefaultDir())
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
	files := map[string][]byte{}
	for _, rel := range projectFiles {
		p := filepath.Join(root, rel)
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		files[p] = data
	}
	if err := store.Trust(root, files); err != nil {
		return err
	}
	fmt.Fprintf(o.io.Out, "trusted: %s\n", root)
	for _, rel := range projectFiles {
		p := filepath.Join(root, rel)
		if data, ok := files[p]; ok {
			sum := sha256.Sum256(data)
			fmt.Fprintf(o.io.Out, "  pinned %s  sha256:%s\n", rel, hex.EncodeToString(sum[:]))
		}
	}
	if len(files) == 0 {
		fmt.Fprintln(o.io.Out, "  (no project hooks file yet: one added later will need trusting)")
	}
	return nil
}
