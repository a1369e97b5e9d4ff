package cli

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/install"
	"github.com/agenthooks/agenthooks/internal/client"
	"github.com/agenthooks/agenthooks/trust"
)

type installOptions struct {
	io        *IO
	uninstall bool
	agent     string
	scope     string
	workspace string
	binary    string
	// trust: open the agent's own gates (--trust); trustSet: the flag was
	// given, so no question is asked.
	trust, trustSet bool
}

// newInstallVerb is `agenthooks install`.
func newInstallVerb(s *IO) *cobra.Command { return newInstallCmd(s, false) }

// newUninstallVerb is `agenthooks uninstall`.
func newUninstallVerb(s *IO) *cobra.Command { return newInstallCmd(s, true) }

// newInstallCmd is `agenthooks install` or, with uninstall, `agenthooks
// uninstall`: the same flags, opposite effects.
func newInstallCmd(s *IO, uninstall bool) *cobra.Command {
	o := &installOptions{io: s, uninstall: uninstall}
	names := strings.Join(agents.Install().Names(), "|")
	cmd := &cobra.Command{
		Use:   "install --agent " + names + " [--scope user|project]",
		Short: "Wire an agent to agenthooks in the agent's own settings",
		Long: `Install makes an agent run agenthooks for every hook event agenthooks can serve, so
the Cursor hooks (enterprise, team, .cursor/hooks.json, ~/.cursor/hooks.json) apply
to it too. It writes the agent's settings with the absolute path of this binary:

  claude    .claude/settings.json            ~/.claude/settings.json
  codex     .codex/hooks.json                $CODEX_HOME/hooks.json (~/.codex)
  gemini    .gemini/settings.json            ~/.gemini/settings.json
  copilot   .github/hooks/agenthooks.json    ~/.copilot/hooks/agenthooks.json
  opencode  .opencode/plugins/agenthooks.js  ~/.config/opencode/plugins/agenthooks.js
            (project scope)                  (user scope, the default)

Running it again changes nothing; with a new binary path it replaces the old
hooks. Every other setting and hook in the file is kept byte for byte, and a file
that existed is first copied to FILE.agenthooks-backup. uninstall takes it all out
again: a file not edited since is restored from its backup byte for byte.

Codex, Copilot CLI and Gemini CLI have gates of their own: Codex runs a
project's hooks only in a project it trusts, and each hook only once it was
reviewed (/hooks); Copilot CLI runs a project's hooks only in a folder it trusts;
Gemini CLI runs settings hooks only in a folder it trusts. A hook an agent skips
lets every action through. With --trust, install records the trust and the
reviews as the agent itself does ($CODEX_HOME/config.toml,
$COPILOT_HOME/config.json, ~/.gemini/trustedFolders.json); without it, install
asks on a terminal, and otherwise prints the exact settings. uninstall takes
back what --trust set.`,
		Example: `  agenthooks install --agent claude`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.trustSet = cmd.Flags().Changed("trust")
			return o.run(cmd.Context())
		},
	}
	if uninstall {
		cmd.Use = "uninstall --agent " + names + " [--scope user|project]"
		cmd.Short = "Take agenthooks out of an agent's settings again"
		cmd.Long = `Uninstall undoes install: a settings file not edited since is put back from its
backup byte for byte (or removed, if install created it); an edited one keeps
the edits and loses only agenthooks' hooks.`
		cmd.Example = `  agenthooks uninstall --agent claude`
	}
	f := cmd.Flags()
	f.StringVar(&o.agent, "agent", "", "the agent: "+strings.Join(agents.Install().Names(), ", "))
	f.StringVar(&o.scope, "scope", install.User, "user (every project) or project (the workspace's own settings)")
	wsHelp := "the workspace root for --scope project (default: the current directory)"
	if !uninstall {
		wsHelp += "; with --scope user, the folder whose trust --trust records in an agent that trusts folder by folder (Gemini CLI)"
	}
	f.StringVarP(&o.workspace, "workspace", "w", "", wsHelp)
	f.StringVar(&o.binary, "binary", "", "the agenthooks binary the agent runs; default: this one")
	if !uninstall {
		f.BoolVar(&o.trust, "trust", false, "record the workspace's trust and the hooks' review in the agent's own settings "+
			"(Codex, Copilot CLI, Gemini CLI), so the agent runs the hooks; --trust=false: neither ask nor record")
	}
	_ = cmd.RegisterFlagCompletionFunc("agent", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return agents.Install().Names(), cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

func (o *installOptions) run(ctx context.Context) error {
	verb := "install"
	if o.uninstall {
		verb = "uninstall"
	}
	if o.agent == "" {
		return usageErr("%s needs --agent: one of %s", verb, strings.Join(agents.Install().Names(), ", "))
	}
	opts := install.Options{Agent: o.agent, Scope: o.scope}
	if o.scope == install.Project {
		root := o.workspace
		if root == "" {
			wd, err := os.Getwd()
			if err != nil {
				return fmt.Errorf("%s: current directory: %w", verb, err)
			}
			root = wd
		}
		abs, err := filepath.Abs(root)
		if err != nil {
			return usageErr("--workspace %q: %v", root, err)
		}
		opts.Root = abs
	} else if o.workspace != "" {
		// At user scope the workspace is only the folder whose trust
		// --trust records where an agent trusts folder by folder (Gemini
		// CLI): a user-level install never trusts a folder it was not
		// told.
		abs, err := filepath.Abs(o.workspace)
		if err != nil {
			return usageErr("--workspace %q: %v", o.workspace, err)
		}
		opts.Root = abs
	}
	if a, ok := agents.Install().Lookup(o.agent); ok && a.FolderTrust && o.trust && o.scope == install.User && o.workspace == "" {
		return usageErr("%s --trust: %s trusts folder by folder, even for its user-level hooks: give the folder to trust with --workspace DIR", verb, a.Title)
	}
	home, err := os.UserHomeDir()
	if err != nil && o.scope == install.User {
		return fmt.Errorf("%s: home folder: %w", verb, err)
	}
	opts.Home = home
	bin, err := o.binaryPath()
	if err != nil {
		return err
	}
	opts.Binary = bin
	path, err := agents.Install().Path(opts)
	if err != nil {
		return usageErr("%s: %v", verb, err)
	}

	var before []byte
	if o.scope == install.Project {
		before, _ = os.ReadFile(path)
	}
	var ch install.Change
	if o.uninstall {
		ch, err = agents.Install().Uninstall(opts)
	} else {
		ch, err = agents.Install().Install(opts)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", verb, err)
	}
	fmt.Fprintf(o.io.Out, "%s: %s %s\n", o.agent, ch.Action, ch.Path)
	if o.scope == install.Project && ch.Action != "unchanged" {
		o.repin(opts.Root, path, before)
	}
	if ch.Backup != "" {
		if o.uninstall {
			fmt.Fprintf(o.io.Out, "  the file was edited since the install; its backup stays at %s\n", ch.Backup)
		} else {
			fmt.Fprintf(o.io.Out, "  backup of the file as it was: %s\n", ch.Backup)
		}
	}
	if o.uninstall {
		if ch.Untrusted {
			fmt.Fprintf(o.io.Out, "  took back the trust install --trust had recorded in %s's settings\n", o.agent)
		}
		return nil
	}
	fmt.Fprintf(o.io.Out, "  runs: %s run --from %s\n", bin, o.agent)
	if ch.Note != "" {
		fmt.Fprintf(o.io.Out, "  note: %s\n", ch.Note)
	}
	if err := o.gates(ctx, opts, ch.Gates); err != nil {
		return fmt.Errorf("%s: %w", verb, err)
	}
	fmt.Fprintln(o.io.Out, "  the hooks it runs: agenthooks list (project hooks run once trusted: agenthooks trust)")
	return nil
}

// binaryPath is the agenthooks the agent should run: --binary, else this
// binary by the path it was started by (a stable symlink such as
// /usr/local/bin/agenthooks survives upgrades better than its target).
func (o *installOptions) binaryPath() (string, error) {
	p := o.binary
	if p == "" {
		// Started by the agenthooks client: the client is what agents run.
		p = os.Getenv(client.EnvFront)
	}
	if p == "" {
		p = os.Args[0]
		if !strings.ContainsRune(p, filepath.Separator) && !strings.ContainsRune(p, '/') {
			if found, err := exec.LookPath(p); err == nil {
				p = found
			} else if exe, err := os.Executable(); err == nil {
				p = exe
			}
		}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("binary %q: %w", p, err)
	}
	// Run as agenthooks-engine: agents run the client beside it.
	if strings.TrimSuffix(filepath.Base(abs), ".exe") == client.EngineName && o.binary == "" {
		client := filepath.Join(filepath.Dir(abs), "agenthooks"+filepath.Ext(abs))
		if fi, err := os.Stat(client); err == nil && !fi.IsDir() {
			abs = client
		}
	}
	info, err := os.Stat(abs)
	if err != nil || info.IsDir() {
		return "", usageErr("the agenthooks binary %q is not a file; give its path with --binary", abs)
	}
	if strings.Contains(abs, string(filepath.Separator)+"go-build") {
		return "", usageErr("this agenthooks is a temporary build (go run): install it first (go install ./cmd/...), or give its path with --binary")
	}
	return abs, nil
}

// repin keeps agenthooks' own trust of the workspace when the file just
// written is one of its project hooks sources (Claude Code's project
// settings are also Cursor's): the file changed only by agenthooks'
// entries, which agenthooks never runs, so the review the user gave it
// still holds. A file edited since that review keeps its old pin.
func (o *installOptions) repin(root, path string, before []byte) {
	store, err := trust.Open(trust.DefaultDir(o.io.getenv))
	if err != nil || !store.Trusted(root) {
		return
	}
	after, _ := os.ReadFile(path) // nil: install took the file away
	if before == nil {
		// A new file: pinned only if agenthooks reads it.
		pins, err := agents.Sources().ProjectPins(root)
		if _, ok := pins[path]; err != nil || !ok {
			return
		}
	}
	switch ok, err := store.Repin(root, path, before, after); {
	case err != nil:
		fmt.Fprintf(o.io.Err, "agenthooks: warning: %s is trusted, but its pin of %s could not be moved to the file's new content (%v): run \"agenthooks trust %s\" after a review\n", root, path, err, root)
	case ok:
		fmt.Fprintf(o.io.Out, "  agenthooks' trust of %s still covers the file: only agenthooks' own entries changed\n", root)
	}
}
