package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/sandbox"
)

// runSandbox is export --sandbox: the workspace's effective sandbox in the
// agent's own sandbox settings.
func (o *exportOptions) runSandbox(ctx context.Context) error {
	if err := o.check(); err != nil {
		return err
	}
	if o.file != "" {
		return usageErr("--sandbox exports the sandbox.json files that apply to a workspace: give --workspace, not --file")
	}
	if !slices.Contains(agents.Export().SandboxAgents(), o.to) {
		_, err := agents.Export().Sandbox(o.to, sandbox.Policy{})
		return usageErr("export: %v", err)
	}
	root := o.workspace
	if root == "" {
		root = o.io.dir
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return usageErr("--workspace %q: %v", root, err)
	}
	loaded := o.io.openHost(ctx).Sandbox([]string{abs})
	for _, p := range loaded.Problems {
		fmt.Fprintln(o.io.Err, p.Error())
	}
	if err := loaded.Err(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if !loaded.Policy.Configured {
		return fmt.Errorf("export: no sandbox.json applies to %s (none in the enterprise folder, a team's hooks folder, ~/.cursor or the workspace's .cursor)", abs)
	}
	res, err := agents.Export().Sandbox(o.to, loaded.Policy)
	if err != nil {
		return usageErr("export: %v", err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(o.io.Err, "warning: "+w)
	}
	dest := filepath.Join(abs, filepath.FromSlash(res.ProjectPath))
	if o.scope == scopeUser {
		home, _ := os.UserHomeDir()
		dest = filepath.Join(home, filepath.FromSlash(res.UserPath))
	}
	if o.output == "" || o.output == "-" {
		if _, err := o.io.Out.Write(res.Document); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		fmt.Fprintf(o.io.Err, "exported the sandbox of %s for %s; it belongs in %s: merge it into that file\n", abs, res.Title, dest)
		return nil
	}
	if err := writeExport(o.output, res.Document, o.force, res.Agent); err != nil {
		return err
	}
	fmt.Fprintf(o.io.Err, "wrote %s: the sandbox of %s for %s\n", o.output, abs, res.Title)
	return nil
}
