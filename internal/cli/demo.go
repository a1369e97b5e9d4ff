package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/examples"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/internal/shellquote"
	"github.com/agenthooks/agenthooks/trust"
)

type demoOptions struct {
	io   *IO
	keep bool
}

func newDemoCmd(s *IO) *cobra.Command {
	o := &demoOptions{io: s}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run a short agent session against the bundled example workspace",
		Long: `Demo unpacks the bundled example workspace into a temporary folder, trusts it in a
temporary trust store (your own ~/.cursor and trust store are not touched), and
plays a short agent session through the engine: session start, a denied git
push, an allowed ls, a blocked read of .env, an edit, and stops with follow-ups
up to the loop limit, showing each hook's answer and the merged decision.`,
		Example: `  agenthooks demo`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
	}
	cmd.Flags().BoolVar(&o.keep, "keep", false, "keep the temporary workspace and print where it is")
	return cmd
}

// demoStep is one step of the scripted session.
type demoStep struct {
	title   string
	step    event.Step
	payload map[string]any
}

func (o *demoOptions) run(ctx context.Context) error {
	for _, tool := range []string{"bash", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("the example hooks need %s (block-git.sh uses bash and jq): install it, e.g. apt-get install %s", tool, tool)
		}
	}
	tmp, err := os.MkdirTemp("", "agenthooks-demo-")
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if o.keep {
		defer fmt.Fprintf(o.io.Out, "\nThe workspace is kept in %s\n", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	ws := filepath.Join(tmp, "workspace")
	if err := unpack(examples.Workspace, "workspace", ws); err != nil {
		return err
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	ts, err := trust.Open(filepath.Join(tmp, "config"))
	if err != nil {
		return err
	}
	// Trust pins the hooks file and the scripts it runs, as `agenthooks
	// trust` does.
	pins, err := agents.Sources().ProjectPins(ws)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	if err := ts.TrustSums(ws, pins); err != nil {
		return err
	}
	// The demo's host: the real assembly, with the demo's own trust store
	// and nothing kept after it.
	h := host.Open(ctx, host.Options{
		Memory:   true,
		TrustDir: filepath.Join(tmp, "config"),
		Locations: func(roots []string) config.Locations {
			return config.Locations{EnterpriseFile: filepath.Join(tmp, "no-enterprise.json"), Home: home, WorkspaceRoots: roots}
		},
	})
	defer h.Close(ctx)
	eng, err := h.Engine([]string{ws}, config.Skip{})
	if err != nil {
		return err
	}
	printEngineProblems(o.io.Err, eng)

	w := o.io.Out
	fmt.Fprintf(w, "Example workspace: %s\nIts .cursor/hooks.json (trusted, pinned to its SHA-256) has %d hooks.\n", ws, len(eng.Hooks()))
	const conv = "demo-session"
	stop := map[string]any{"conversation_id": conv, "status": "completed"}
	steps := []demoStep{
		{"A session starts", event.SessionStart, map[string]any{"session_id": conv, "is_background_agent": false, "composer_mode": "agent"}},
		{"The agent wants to push with git", event.BeforeShellExecution, map[string]any{"conversation_id": conv, "command": "git push origin main", "cwd": ws}},
		{"The agent lists files", event.BeforeShellExecution, map[string]any{"conversation_id": conv, "command": "ls -la", "cwd": ws}},
		{"The agent wants to read .env", event.BeforeReadFile, map[string]any{"conversation_id": conv, "file_path": filepath.Join(ws, ".env"), "content": "API_TOKEN=s3cr3t"}},
		{"The agent edits a file", event.AfterFileEdit, map[string]any{"conversation_id": conv, "file_path": filepath.Join(ws, "main.go"), "edits": []map[string]string{{"old_string": "fmt.Println(1)", "new_string": "fmt.Println(2)"}}}},
		{"The agent stops", event.Stop, stop},
		{"The agent stops again", event.Stop, stop},
		{"The agent stops a third time", event.Stop, stop},
	}
	for i, s := range steps {
		payload, err := json.Marshal(s.payload)
		if err != nil {
			return err
		}
		rep := h.Run(ctx, host.Request{Step: s.step, Payload: payload, Workspaces: []string{ws}})
		if rep.Fault != nil {
			return rep.Fault
		}
		showDemoStep(w, i+1, s, rep.Decision)
	}
	fmt.Fprintf(w, "\n%d hooks ran (the demo keeps its log in memory: your own log is untouched).\n", len(eng.Log()))
	if o.keep {
		fmt.Fprintf(w, "Explore the workspace (trust it first: the demo trusted it only for itself):\n  cd %s\n  agenthooks trust .\n  agenthooks test beforeShellExecution --payload payload.json\n  agenthooks validate\n", shellquote.POSIX(ws))
	} else {
		fmt.Fprintln(w, "agenthooks demo --keep leaves the workspace behind, with a payload.json to try with agenthooks test.")
	}
	return nil
}

func showDemoStep(w io.Writer, n int, s demoStep, d *engine.Decision) {
	payload, _ := json.Marshal(s.payload)
	fmt.Fprintf(w, "\n%d. %s\n   %s %s\n", n, s.title, s.step, clipCommand(string(payload), 100))
	for _, o := range d.Hooks {
		took := o.Result.Duration.Round(100 * time.Microsecond)
		said := o.Said
		if said == "none" {
			said = "no opinion"
		}
		fmt.Fprintf(w, "   - %s: %s (%s)\n", filepath.Base(o.Hook.Command), said, took)
	}
	if len(d.Hooks) == 0 {
		fmt.Fprintln(w, "   - no hook for this step")
	}
	switch {
	case d.Blocked():
		fmt.Fprintf(w, "   => BLOCKED. The user sees: %s\n", clipCommand(d.ClientMessage, 160))
	case d.Permission != event.NoOpinion:
		fmt.Fprintf(w, "   => %s\n", d.Permission)
	case d.FollowupMessage != "":
		fmt.Fprintf(w, "   => follow-up %d: %q\n", d.LoopCount+1, d.FollowupMessage)
	case s.step == event.Stop:
		fmt.Fprintf(w, "   => no follow-up: loop_count %d reached the hook's loop_limit\n", d.LoopCount)
	case len(d.Env) > 0:
		fmt.Fprintf(w, "   => session env %v for every later hook; context %q\n", d.Env, d.AdditionalContext)
	default:
		fmt.Fprintln(w, "   => recorded; nothing to decide")
	}
}

// unpack copies an embedded tree to dir, making shell scripts executable
// (embedding keeps no file modes).
func unpack(fsys fs.FS, root, dir string) error {
	return fs.WalkDir(fsys, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.FromSlash(p))
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, rel)
		if e.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(dst, data, mode); err != nil {
			return fmt.Errorf("demo: unpack %s: %w", dst, err)
		}
		return nil
	})
}
