package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/export"
	"github.com/agenthooks/agenthooks/internal/atomicfile"
)

// The values of export's --scope.
const (
	scopeProject = "project"
	scopeUser    = "user"
)

// maxExportInput bounds the hooks file export reads, as the loader does.
const maxExportInput = 16 << 20

type exportOptions struct {
	io        *IO
	to        string
	file      string
	workspace string
	scope     string
	output    string
	force     bool
	sandbox   bool
}

func newExportCmd(s *IO) *cobra.Command {
	o := &exportOptions{io: s}
	names := strings.Join(agents.Export().Agents(), "|")
	cmd := &cobra.Command{
		Use:   "export --to " + names + " [--file FILE | --workspace DIR] [--scope project|user] [-o FILE|-] [--force]",
		Short: "Translate hooks.json into another agent's own hook settings",
		Long: `Export translates Cursor hooks (a hooks.json) into the native hook settings of
another agent, for running the same commands there without agenthooks:

  claude    .claude/settings.json              ~/.claude/settings.json
  gemini    .gemini/settings.json              ~/.gemini/settings.json
  codex     .codex/hooks.json                  ~/.codex/hooks.json
  copilot   .github/hooks/cursor-hooks.json    ~/.copilot/hooks/cursor-hooks.json

It reads the project's .cursor/hooks.json (the current directory, or --workspace
DIR), or ~/.cursor/hooks.json with --scope user, or --file FILE. It prints the
settings document on stdout, or writes it to -o FILE, which must not exist yet
(--force replaces it): an agent's settings file holds more than hooks, so merge
the printed "hooks" into it rather than replacing it.

Steps become the agent's events, Cursor's tool names in matchers the agent's, and
each command first changes into the folder Cursor runs it from. Whatever the agent
cannot express (steps it lacks, failClosed, loop_limit, prompt hooks, matchers on
the command line, …) is a warning on stderr, one per line:

  warning: FILE:STEP[INDEX]: what is lost (what to do instead)

Every exported hook gets one: the script receives the agent's payload, not
Cursor's, and must answer in the agent's format. To keep the scripts unchanged,
use agenthooks install instead, which makes the agent run them through agenthooks.
See ` + docsURL + `export.md.

With --sandbox, export renders the workspace's effective sandbox (every
sandbox.json that applies, merged as agenthooks exec merges them) into the
agent's own sandbox settings: Claude Code's "sandbox" in .claude/settings.json,
Codex's sandbox_mode and [sandbox_workspace_write] in .codex/config.toml. What
the agent's sandbox cannot express is a warning; where it cannot, the settings
are stricter than sandbox.json, unless the warning says otherwise.

Exit status: 0 when something was exported (warnings or not); 64 for a bad flag or
an unknown --to; 1 when the hooks file is missing, unreadable or invalid, when
nothing in it can be exported, or when -o FILE exists.`,
		Example: `  agenthooks export --to gemini --scope user`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.sandbox {
				return o.runSandbox(cmd.Context())
			}
			return o.run()
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.to, "to", "", "the agent: "+strings.Join(agents.Export().Agents(), ", "))
	f.StringVar(&o.file, "file", "", "the hooks.json to export; default: the scope's (see --scope)")
	f.StringVarP(&o.workspace, "workspace", "w", "", "the workspace whose .cursor/hooks.json to export; default: the current directory")
	f.StringVar(&o.scope, "scope", "", "project (.cursor/hooks.json of the workspace, the default) or user (~/.cursor/hooks.json); also where the result belongs")
	f.StringVarP(&o.output, "output", "o", "", "write the document to FILE instead of stdout (- is stdout); FILE must not exist")
	f.BoolVar(&o.force, "force", false, "with -o, replace FILE if it exists")
	f.BoolVar(&o.sandbox, "sandbox", false, "export the workspace's effective sandbox (its sandbox.json files merged) into the agent's own sandbox settings ("+strings.Join(agents.Export().SandboxAgents(), ", ")+") instead of its hooks")
	_ = cmd.RegisterFlagCompletionFunc("to", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return agents.Export().Agents(), cobra.ShellCompDirectiveNoFileComp
	})
	_ = cmd.RegisterFlagCompletionFunc("scope", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{scopeProject, scopeUser}, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// exportInput is the hooks file to export and how Cursor runs its hooks.
type exportInput struct {
	path   string
	source config.Source
	dir    string // where its hooks run
	root   string // the workspace root, for project hooks
	// given: the path came from --file (rather than from the scope).
	given bool
}

func (o *exportOptions) run() error {
	if err := o.check(); err != nil {
		return err
	}
	home := config.DefaultLocations(o.io.getenv, nil).Home
	in, err := o.input(home)
	if err != nil {
		return err
	}
	data, err := readHooksFile(in)
	if err != nil {
		return err
	}
	f := config.ParseFile(in.path, data, in.source, in.dir, in.root)
	for _, p := range f.Problems {
		fmt.Fprintln(o.io.Err, p.Error())
	}
	if f.HasErrors() {
		return fmt.Errorf("export: %s has errors (above); fix them first: agenthooks validate %s", in.path, in.path)
	}
	if len(f.Hooks) == 0 {
		return fmt.Errorf("export: nothing to export: %s has no hooks", in.path)
	}
	res, err := agents.Export().To(o.to, f.Hooks)
	if err != nil {
		return usageErr("export: %v", err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(o.io.Err, "warning: "+w.String())
	}
	if !in.given {
		o.otherSources(in, home)
	}
	if res.Exported == 0 {
		return fmt.Errorf("export: nothing to export: none of the %d hook(s) in %s can be expressed for %s (see the warnings above)",
			len(f.Hooks), in.path, res.Title)
	}
	dest := o.destination(res, in, home)
	what := fmt.Sprintf("%d of %d hook(s) for %s", res.Exported, len(f.Hooks), res.Title)
	if o.output == "" || o.output == "-" {
		if _, err := o.io.Out.Write(res.Document); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		fmt.Fprintf(o.io.Err, "exported %s; %s\n", what, placeHint(res, dest))
		return nil
	}
	if err := writeExport(o.output, res.Document, o.force, res.Agent); err != nil {
		return err
	}
	fmt.Fprintf(o.io.Err, "wrote %s: %s\n", o.output, what)
	return nil
}

// check validates the flags that do not need the file system.
func (o *exportOptions) check() error {
	if o.to == "" {
		return usageErr("export needs --to: one of %s", strings.Join(agents.Export().Agents(), ", "))
	}
	if agents.Export().Title(o.to) == "" {
		return usageErr("unknown --to %q: use one of %s", o.to, strings.Join(agents.Export().Agents(), ", "))
	}
	switch o.scope {
	case "", scopeProject, scopeUser:
	default:
		return usageErr("--scope %q: use %s or %s", o.scope, scopeProject, scopeUser)
	}
	switch {
	case o.file != "" && o.workspace != "":
		return usageErr("give --file or --workspace, not both")
	case o.workspace != "" && o.scope == scopeUser:
		return usageErr("--workspace applies to project hooks, not with --scope user")
	case o.force && (o.output == "" || o.output == "-"):
		return usageErr("--force applies only with -o FILE")
	}
	return nil
}

// input finds the hooks file and works out where Cursor runs its hooks,
// from where the file is: a project's .cursor/hooks.json runs from the
// project root, ~/.cursor/hooks.json from ~/.cursor, any other file (the
// enterprise file, a team's, one of your own) from its own folder.
func (o *exportOptions) input(home string) (exportInput, error) {
	var path string
	switch {
	case o.file != "":
		abs, err := filepath.Abs(o.file)
		if err != nil {
			return exportInput{}, usageErr("--file %q: %v", o.file, err)
		}
		path = abs
	case o.scope == scopeUser:
		if home == "" {
			return exportInput{}, errors.New("export: no home folder (set HOME) to find ~/.cursor/hooks.json in")
		}
		path = config.UserFile(home)
	default:
		root := o.workspace
		if root == "" {
			wd, err := os.Getwd()
			if err != nil {
				return exportInput{}, fmt.Errorf("export: current directory: %w", err)
			}
			root = wd
		}
		abs, err := filepath.Abs(root)
		if err != nil {
			return exportInput{}, usageErr("--workspace %q: %v", root, err)
		}
		path = config.ProjectFile(abs)
	}
	in := exportInput{path: path, given: o.file != ""}
	cursorDir := filepath.Dir(path)
	switch {
	case home != "" && path == config.UserFile(home):
		in.source, in.dir = config.User, cursorDir
	case filepath.Base(path) == "hooks.json" && filepath.Base(cursorDir) == ".cursor":
		in.source, in.root = config.Project, filepath.Dir(cursorDir)
		in.dir = in.root
	case path == enterpriseFile():
		in.source, in.dir = config.Enterprise, cursorDir
	case home != "" && strings.HasPrefix(path, config.TeamDir(home)+string(filepath.Separator)):
		in.source, in.dir = config.Team, cursorDir
	default:
		in.source, in.dir = config.User, cursorDir
	}
	return in, nil
}

// enterpriseFile is the enterprise hooks file, as the loader finds it.
func enterpriseFile() string {
	p := os.Getenv(config.EnterpriseEnv)
	if p == "" {
		p = config.DefaultEnterpriseFile()
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// readHooksFile reads the file to export, saying what to do when there is
// none.
func readHooksFile(in exportInput) ([]byte, error) {
	file, err := os.Open(in.path)
	if errors.Is(err, fs.ErrNotExist) && !in.given {
		return nil, fmt.Errorf("export: no hooks file at %s (name one with --file, or use --workspace DIR or --scope user)", in.path)
	}
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	defer file.Close()
	if fi, err := file.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("export: %s is a folder, not a hooks file", in.path)
	}
	data, err := io.ReadAll(io.LimitReader(file, maxExportInput+1))
	if err != nil {
		return nil, fmt.Errorf("export: read %s: %w", in.path, err)
	}
	if len(data) > maxExportInput {
		return nil, fmt.Errorf("export: %s is larger than %d MiB", in.path, maxExportInput>>20)
	}
	return data, nil
}

// otherSources warns about the hooks Cursor would run besides the ones
// exported: the other sources of this workspace and user.
func (o *exportOptions) otherSources(in exportInput, home string) {
	root := in.root
	if root == "" {
		if wd, err := os.Getwd(); err == nil {
			root = wd
		}
	}
	loc := config.DefaultLocations(o.io.getenv, []string{root})
	loc.Home = home
	loc.Settings = agents.Settings()
	for _, f := range config.Load(loc, nil).Files {
		if f.Path == in.path || len(f.Hooks) == 0 {
			continue
		}
		how := "--file " + f.Path
		switch f.Source {
		case config.User:
			how = "--scope user"
		case config.Project:
			how = "--workspace " + f.Root
		}
		fmt.Fprintf(o.io.Err, "warning: %s: its %d %s hook(s) also run in Cursor and are not in this export (export them with %s)\n",
			f.Path, len(f.Hooks), f.Source, how)
	}
}

// destination is where the document belongs: in the project (the
// workspace root, else the current directory) or in the home folder.
func (o *exportOptions) destination(res export.Result, in exportInput, home string) string {
	scope := o.scope
	if scope == "" {
		scope = scopeUser
		if in.source == config.Project {
			scope = scopeProject
		}
	}
	if scope == scopeProject {
		root := in.root
		if root == "" {
			root, _ = os.Getwd()
		}
		return filepath.Join(root, filepath.FromSlash(res.ProjectPath))
	}
	if res.Agent == "codex" {
		if dir := os.Getenv("CODEX_HOME"); dir != "" {
			return filepath.Join(dir, "hooks.json")
		}
	}
	if home == "" {
		return "~/" + res.UserPath
	}
	return filepath.Join(home, filepath.FromSlash(res.UserPath))
}

// placeHint says what to do with the printed document.
func placeHint(res export.Result, dest string) string {
	if res.Agent == "copilot" {
		return "save it as " + dest + " (GitHub Copilot reads every file in that folder)"
	}
	return "it belongs in " + dest + ": merge its \"hooks\" into that file if it exists"
}

// writeExport writes the document to path: only a new file, unless
// force. The parent folders are created.
func writeExport(path string, doc []byte, force bool, agent string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if force {
		return writeReplace(path, doc)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("export: %s exists and is left unchanged: an agent's settings file holds more than hooks, so merge the exported \"hooks\" into it by hand, "+
			"or let `agenthooks install --agent %s` add agenthooks to it (the hooks then run unchanged); --force replaces the file", path, agent)
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	_, werr := f.Write(doc)
	if err := errors.Join(werr, f.Close()); err != nil {
		_ = os.Remove(path)
		return fmt.Errorf("export: write %s: %w", path, err)
	}
	return nil
}

// writeReplace replaces path with doc atomically, so a reader never sees
// half a file.
func writeReplace(path string, doc []byte) error {
	if err := atomicfile.WriteMode(path, doc, 0o644); err != nil {
		return fmt.Errorf("export: write %s: %w", path, err)
	}
	return nil
}
