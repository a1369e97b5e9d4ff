//go:build !windows

// The examples' hooks are sh command lines; hooks on Windows run through
// PowerShell, which these do not target.

package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/event"
)

// exampleHooks is a user's ~/.cursor/hooks.json: one hook denies
// `git push`, another allows `ls`; other commands match no hook.
const exampleHooks = `{"version": 1, "hooks": {"beforeShellExecution": [
  {"command": "echo '{\"permission\":\"deny\",\"user_message\":\"pushing is for CI\",\"agent_message\":\"Open a pull request instead.\"}'", "matcher": "^git push"},
  {"command": "echo '{\"permission\":\"allow\"}'", "matcher": "^ls( |$)"}
]}}`

// exampleEngine loads exampleHooks from a fresh home folder. The
// enterprise file is pointed at a missing file so that the machine's own
// /etc/cursor/hooks.json cannot change the outcome.
func exampleEngine() (*engine.Engine, string, func()) {
	home, err := os.MkdirTemp("", "agenthooks-example")
	if err != nil {
		panic(err)
	}
	cleanup := func() { os.RemoveAll(home) }
	if err := os.MkdirAll(filepath.Dir(config.UserFile(home)), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(config.UserFile(home), []byte(exampleHooks), 0o644); err != nil {
		panic(err)
	}
	eng, err := engine.Load(engine.Options{Locations: config.Locations{
		Home:           home,
		EnterpriseFile: filepath.Join(home, "no-enterprise.json"),
		WorkspaceRoots: []string{home},
	}})
	if err != nil {
		panic(err)
	}
	return eng, home, cleanup
}

// A host asks the engine before it runs a shell command, with the step's
// typed input, and blocks the command when the decision says so.
func ExampleEngine_Run() {
	eng, root, cleanup := exampleEngine()
	defer cleanup()
	fmt.Println("problems:", len(eng.Problems()))

	// HasHooks costs nothing: a host skips building the payload of a step
	// no hook listens to.
	fmt.Println("shell hooks:", eng.HasHooks(event.BeforeShellExecution))
	fmt.Println("read hooks:", eng.HasHooks(event.BeforeReadFile))

	in := event.BeforeShellExecutionInput{
		Common:  event.Common{ConversationID: "conv-1", WorkspaceRoots: []string{root}},
		Command: "git push origin main",
		Cwd:     root,
	}
	d, err := eng.Run(context.Background(), event.BeforeShellExecution, in)
	if err != nil {
		fmt.Println("run:", err) // the step could not run at all: block it
		return
	}
	fmt.Println("blocked:", d.Blocked())
	fmt.Println("permission:", d.Permission)
	fmt.Println("user:", d.ClientMessage)
	fmt.Println("model:", d.ModelMessage)
	// Output:
	// problems: 0
	// shell hooks: true
	// read hooks: false
	// blocked: true
	// permission: deny
	// user: Command execution was blocked by a hook: pushing is for CI
	// model: The terminal command was rejected by a hook. Open a pull request instead. Do not attempt to work around this restriction using alternative methods or commands.
}

// No opinion is not allow: when no hook matched (or none answered), the
// host keeps its own permission prompt; only an explicit allow may skip it.
func ExampleDecision_noOpinion() {
	eng, root, cleanup := exampleEngine()
	defer cleanup()
	ctx := context.Background()

	for _, command := range []string{"echo hello", "ls -l"} {
		in := event.BeforeShellExecutionInput{
			Common:  event.Common{ConversationID: "conv-1", WorkspaceRoots: []string{root}},
			Command: command,
			Cwd:     root,
		}
		d, err := eng.Run(ctx, event.BeforeShellExecution, in)
		if err != nil {
			fmt.Println("run:", err)
			return
		}
		switch d.Permission {
		case event.NoOpinion:
			fmt.Printf("%s: no opinion (%d hooks ran): ask the user as usual\n", command, len(d.Hooks))
		case event.Allow:
			fmt.Printf("%s: allowed (%d hook ran): run without asking\n", command, len(d.Hooks))
		default:
			fmt.Printf("%s: %s\n", command, d.Permission)
		}
		fmt.Printf("  blocked: %t, response: %v\n", d.Blocked(), d.Response())
	}
	// Output:
	// echo hello: no opinion (0 hooks ran): ask the user as usual
	//   blocked: false, response: map[]
	// ls -l: allowed (1 hook ran): run without asking
	//   blocked: false, response: map[permission:allow]
}
