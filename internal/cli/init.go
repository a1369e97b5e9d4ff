package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
)

type initOptions struct {
	io        *IO
	project   bool
	workspace string
}

func newInitCmd(s *IO) *cobra.Command {
	o := &initOptions{io: s}
	cmd := &cobra.Command{
		Use:   "init [--project [--workspace DIR]]",
		Short: "Create a sample hooks.json and hook script",
		Long: `Init does what Cursor's "initialize user hooks" command does: it creates
~/.cursor/hooks/, a sample beforeSubmitPrompt hook script there that appends each
prompt's payload to ` + sampleLogHint + ` and lets the prompt through, and
~/.cursor/hooks.json that runs it.

With --project it does the same in the workspace's .cursor/ folder (the current
directory, or --workspace DIR), with the command relative to the project root, as
project hooks run from there. Project hooks run only once trusted: see
agenthooks trust.

Init never overwrites a file: what already exists is left as it is and said so,
and running init again is harmless.`,
		Example: `  agenthooks init`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("workspace") && !o.project {
				return usageErr("--workspace needs --project: user hooks live in ~/.cursor")
			}
			return o.run()
		},
	}
	cmd.Flags().BoolVar(&o.project, "project", false, "create project hooks in the workspace's .cursor/ folder instead of ~/.cursor")
	cmd.Flags().StringVarP(&o.workspace, "workspace", "w", "", "workspace root for --project; default: the current directory")
	return cmd
}

// initTarget says where init writes and how the hooks file names the
// script.
type initTarget struct {
	cursorDir string // the .cursor folder that receives hooks.json and hooks/
	root      string // project root (--project), "" for user hooks
	command   string // the command written into hooks.json
}

func (o *initOptions) target() (initTarget, error) {
	if !o.project {
		home := config.DefaultLocations(o.io.getenv, nil).Home
		if home == "" {
			return initTarget{}, errors.New("init: no home directory (set HOME) to create ~/.cursor/hooks.json in")
		}
		// User hooks run from ~/.cursor.
		return initTarget{
			cursorDir: filepath.Dir(config.UserFile(home)),
			command:   sampleCommand("./" + path.Join("hooks", sampleScriptName)),
		}, nil
	}
	root, err := workspaceDir(o.workspace)
	if err != nil {
		return initTarget{}, err
	}
	// Project hooks run from the project root.
	return initTarget{
		cursorDir: filepath.Dir(config.ProjectFile(root)),
		root:      root,
		command:   sampleCommand(path.Join(".cursor", "hooks", sampleScriptName)),
	}, nil
}

func (o *initOptions) run() error {
	t, err := o.target()
	if err != nil {
		return err
	}
	out := o.io.Out
	hooksDir := filepath.Join(t.cursorDir, "hooks")
	script := filepath.Join(hooksDir, sampleScriptName)
	hooksFile := filepath.Join(t.cursorDir, "hooks.json")

	_, statErr := os.Stat(hooksDir)
	if err := os.MkdirAll(hooksDir, 0o755); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		fmt.Fprintf(out, "created  %s%c\n", hooksDir, filepath.Separator)
	}

	created, err := initCreateFile(script, []byte(sampleScript), sampleScriptMode)
	if err != nil {
		return err
	}
	initReport(o.io, script, created)

	doc, err := sampleHooksFile(t.command)
	if err != nil {
		return err
	}
	hooksCreated, err := initCreateFile(hooksFile, doc, 0o644)
	if err != nil {
		return err
	}
	initReport(o.io, hooksFile, hooksCreated)
	if !hooksCreated && !initRunsSample(hooksFile) {
		fmt.Fprintf(out, "\n%s does not run the sample hook; to run it, add this to its \"hooks\":\n  %q: [{\"command\": %q}]\n",
			hooksFile, event.BeforeSubmitPrompt, t.command)
	}

	if created || hooksCreated {
		fmt.Fprintf(out, "\nThe sample hook runs before every prompt: it appends the prompt's payload to\n%s and lets the prompt through. Edit %s to make it yours.\n", sampleLogHint, script)
	} else {
		fmt.Fprintln(out, "\nNothing to create: the files were already there.")
	}
	if t.root != "" {
		fmt.Fprintf(out, "Project hooks run only in a trusted workspace. Review the files, then:\n  agenthooks trust %s\n", t.root)
		return nil
	}
	fmt.Fprintf(out, "Try it:\n  echo '{\"prompt\":\"hello\"}' | agenthooks run %s\n", event.BeforeSubmitPrompt)
	return nil
}

// initReport says what happened to one file.
func initReport(s *IO, p string, created bool) {
	if created {
		fmt.Fprintf(s.Out, "created  %s\n", p)
	} else {
		fmt.Fprintf(s.Out, "exists   %s (left unchanged)\n", p)
	}
}

// sampleHooksFile is the hooks.json that runs the sample script, written
// from the same types the schema is generated from.
func sampleHooksFile(command string) ([]byte, error) {
	doc := config.Document{
		Version: 1,
		Hooks: config.StepHooks{
			string(event.BeforeSubmitPrompt): {{Command: command}},
		},
	}
	b, err := jsonplain.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("init: encode hooks.json: %w", err)
	}
	return append(b, '\n'), nil
}

// initCreateFile writes a file that must not exist yet; created is false, with
// no error, when it does. The check and the creation are one step
// (O_EXCL), so a file appearing meanwhile is not overwritten either.
func initCreateFile(p string, data []byte, mode os.FileMode) (created bool, err error) {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("init: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(p) // leave no half-written file that a rerun would keep
		return false, fmt.Errorf("init: write %s: %w", p, err)
	}
	return true, nil
}

// initRunsSample reports whether an existing hooks file already has a
// beforeSubmitPrompt hook that runs the sample script.
func initRunsSample(hooksFile string) bool {
	data, err := os.ReadFile(hooksFile)
	if err != nil {
		return false
	}
	dir := filepath.Dir(hooksFile)
	for _, h := range config.ParseFile(hooksFile, data, config.User, dir, dir).Hooks {
		if h.Step == event.BeforeSubmitPrompt && strings.Contains(h.Command, sampleScriptName) {
			return true
		}
	}
	return false
}
