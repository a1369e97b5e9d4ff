package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/settings"
	"github.com/agenthooks/agenthooks/llm"
	"github.com/agenthooks/agenthooks/sandbox"
)

type validateOptions struct {
	io         *IO
	files      []string
	workspaces []string
	strict     bool
}

func newValidateCmd(s *IO) *cobra.Command {
	o := &validateOptions{io: s}
	cmd := &cobra.Command{
		Use:   "validate [FILE]...",
		Short: "Check hooks files and report every problem",
		Long: `Validate checks every source (enterprise, team, each workspace's project hooks, user)
and the sandbox.json beside each, or only the files given, and prints each problem with its file, line:column, the
field, what is wrong and how to fix it. It exits 1 when there is an error (or, with
--strict, a warning), 0 otherwise.

Mistakes that silently disarm a guard are errors: a step name or a key one or two
edits (or a case) from a known one, a script path with no executable file behind
it, a matcher that can never match the one value its step is tested against, a
version other than 1, loop_limit on a step without follow-ups, a timeout over an
hour. A program named on no folder of PATH, and prompt hooks with no model they
could ask (a bad AGENTHOOKS_LLM_* setting, no API key for a public endpoint), are
warnings: they fail at every run, which lets the step through unless the hook is
failClosed.

In a trusted workspace, a file pinned by agenthooks trust (a hooks file, or a script or
policy its hooks run) that changed since is an error: it names the file, says what changed
and gives the fix, agenthooks trust DIR.`,
		Example: `  agenthooks validate`,
		RunE: func(_ *cobra.Command, args []string) error {
			o.files = args
			return o.run()
		},
	}
	cmd.Flags().StringArrayVarP(&o.workspaces, "workspace", "w", nil, "workspace root (repeatable); default: the current directory")
	cmd.Flags().BoolVar(&o.strict, "strict", false, "treat warnings as errors")
	return cmd
}

func (o *validateOptions) run() error {
	var problems []config.Problem
	checked := 0
	if len(o.files) > 0 {
		for _, f := range o.files {
			data, err := os.ReadFile(f)
			if err != nil {
				return fmt.Errorf("validate: %w", err)
			}
			abs, _ := filepath.Abs(f)
			dir := filepath.Dir(abs)
			if filepath.Base(abs) == config.SandboxName {
				// A sandbox file: its own format (package sandbox).
				problems = append(problems, sandbox.Parse(abs, data, sandbox.User, filepath.Dir(dir)).Problems...)
				checked++
				continue
			}
			srcs := agents.Sources()
			if src, root, ok := settingsFileOf(srcs, abs, o.io.getenv); ok {
				// Another agent's settings file: its own format. A
				// project's runs its hooks from the workspace root, so
				// that is where their programs are, as for
				// .cursor/hooks.json.
				hookDir := dir
				if root != "" {
					hookDir = root
				}
				f := srcs.Parse(abs, data, src, hookDir, hookDir)
				problems = append(problems, f.Problems...)
				if root != "" {
					problems = append(problems, config.MissingPrograms(f.Hooks, o.io.environ())...)
				}
				checked++
				continue
			}
			cursorSrc, hookDir, placed := config.User, dir, false
			if root, ok := projectRootOf(abs, o.io.getenv("HOME")); ok {
				// A project's .cursor/hooks.json: its hooks run from the
				// workspace root, so that is where their programs are.
				cursorSrc, hookDir, placed = config.Project, root, true
			} else if home := o.io.getenv("HOME"); home != "" && abs == filepath.Join(home, ".cursor", "hooks.json") {
				placed = true
			}
			f := srcs.Parse(abs, data, cursorSrc, hookDir, hookDir)
			problems = append(problems, f.Problems...)
			if placed {
				// Where a file's hooks run from is known only where Cursor
				// reads it; a file elsewhere (a draft) is checked alone.
				problems = append(problems, config.MissingPrograms(f.Hooks, o.io.environ())...)
			}
			// The published JSON Schema must agree: report what it alone finds.
			problems = append(problems, config.SchemaProblems(abs, data, f.Problems)...)
			checked++
		}
	} else {
		roots, err := workspaceRoots(nil, o.workspaces)
		if err != nil {
			return err
		}
		h, eng, closeEngine, err := openHostEngine(context.Background(), roots, config.Skip{})
		if err != nil {
			return err
		}
		defer closeEngine()
		set := eng.Config()
		checked = len(set.Files)
		problems = set.Problems
		for _, f := range set.Files {
			problems = append(problems, f.SchemaProblems()...)
		}
		problems = append(problems, config.MissingPrograms(set.FileHooks(), o.io.environ())...)
		problems = append(problems, unsurePins(set.FileHooks(), trustedRoots(o.io.getenv))...)
		problems = append(problems, unreachableModel(set.Hooks, o.io.getenv)...)
		// The sandbox files beside every source.
		sb := h.Sandbox(roots)
		checked += len(sb.Files)
		problems = append(problems, sb.Problems...)
	}
	errs, warns := 0, 0
	for _, p := range problems {
		fmt.Fprintln(o.io.Out, p.Error())
		if p.Severity == config.Error {
			errs++
		} else {
			warns++
		}
	}
	fmt.Fprintf(o.io.Err, "%d file(s) checked: %d error(s), %d warning(s)\n", checked, errs, warns)
	if errs > 0 || (o.strict && warns > 0) {
		return silentExit(ExitProblems)
	}
	return nil
}

// unreachableModel warns, once, when prompt hooks are configured but no
// model can be called with this environment (llm.Check): each fails at
// every run, quietly letting its step through unless it is failClosed.
func unreachableModel(hooks []*config.Hook, getenv func(string) string) []config.Problem {
	var prompts []*config.Hook
	closed := 0
	for _, h := range hooks {
		if h.Type == config.TypePrompt {
			prompts = append(prompts, h)
			if h.FailClosed {
				closed++
			}
		}
	}
	if len(prompts) == 0 {
		return nil
	}
	err := llm.Check(getenv)
	if err == nil {
		return nil
	}
	msg, fix, _ := strings.Cut(err.Error(), " (fix: ")
	fix = strings.TrimSuffix(fix, ")")
	if fix == "" {
		fix = "set the model's API key, or " + llm.EnvBaseURL + " to a server that needs none"
	}
	return []config.Problem{{File: prompts[0].File, Severity: config.Warning,
		Message: fmt.Sprintf("%d prompt hook(s) cannot reach a model (%s): each fails at every run, which lets its step through (%d of them failClosed, which block it instead)", len(prompts), msg, closed),
		Fix:     fix}}
}

// settingsFileOf finds the agent whose settings file abs is (a project's
// or the user's, under a folder up to three levels above it), or whose
// plugin's hooks file it is, through the registry: validate reads it in
// that agent's format. root is a project file's workspace root ("" for
// the user's file or a plugin's).
func settingsFileOf(srcs config.Sources, abs string, getenv func(string) string) (src config.Source, root string, ok bool) {
	home, _ := settings.Home(getenv)
	for _, s := range srcs.Settings() {
		if p := s.Plugins; p != nil && p.IsHooksFile(abs) && len(s.Files) > 0 {
			// A plugin is the user's: read as of the user's file.
			return srcs.File(s, len(s.Files)-1), "", true
		}
		for i, f := range s.Files {
			if !f.Project {
				// The user's file is in the agent's user folder.
				if dir := s.Folder(home, getenv); dir != "" && filepath.Clean(f.Path(dir)) == abs {
					return srcs.File(s, i), "", true
				}
				continue
			}
			for r, n := filepath.Dir(abs), 0; n < 3; r, n = filepath.Dir(r), n+1 {
				if filepath.Clean(f.Path(r)) == abs {
					return srcs.File(s, i), r, true
				}
			}
		}
	}
	return config.Source{}, "", false
}

// projectRootOf is the workspace root of a project hooks file,
// <root>/.cursor/hooks.json; not the user's own ~/.cursor/hooks.json.
func projectRootOf(abs, home string) (string, bool) {
	dir := filepath.Dir(abs)
	if filepath.Base(abs) != "hooks.json" || filepath.Base(dir) != ".cursor" {
		return "", false
	}
	if home != "" && filepath.Clean(filepath.Join(home, ".cursor")) == dir {
		return "", false
	}
	return filepath.Dir(dir), true
}
