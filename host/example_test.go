package host_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/host"
)

// A Go agent asks agenthooks about each step: one Host for the process,
// one Run per step, the answer in Cursor's shape or in the agent's own.
func Example() {
	ctx := context.Background()
	home := exampleHome() // holds ~/.cursor/hooks.json: a hook that denies git push
	defer os.RemoveAll(home)

	h := host.Open(ctx, host.Options{
		Memory: true, // no state store: sessions and the log stay in memory
		Locations: func(roots []string) config.Locations {
			return config.Locations{Home: home, EnterpriseFile: filepath.Join(home, "no-enterprise.json"), WorkspaceRoots: roots}
		},
	})
	defer h.Close(ctx)

	// A Cursor step: the decision, and the response to hand the agent.
	rep := h.Run(ctx, host.Request{
		Step:       event.BeforeShellExecution,
		Payload:    []byte(`{"command":"git push origin main","cwd":"."}`),
		Workspaces: []string{home},
	})
	fmt.Println("blocked:", rep.Decision.Blocked())
	fmt.Println("user:", rep.Decision.ClientMessage)

	// The same hooks, asked in Claude Code's hook format.
	rep = h.Run(ctx, host.Request{
		Agent:      "claude",
		Payload:    []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push"}}`),
		Workspaces: []string{home},
	})
	fmt.Printf("claude: exit %d, %s", rep.Code, rep.Stdout)
	// Output:
	// blocked: true
	// user: Command execution was blocked by a hook: pushing is for CI
	// claude: exit 0, {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"The terminal command was rejected by a hook. pushing is for CI Do not attempt to work around this restriction using alternative methods or commands."}}
}

func exampleHome() string {
	home, err := os.MkdirTemp("", "agenthooks-example")
	if err != nil {
		panic(err)
	}
	hooks := `{"version": 1, "hooks": {"beforeShellExecution": [
	  {"command": "echo '{\"permission\":\"deny\",\"user_message\":\"pushing is for CI\"}'", "matcher": "^git push"}
	]}}`
	if err := os.MkdirAll(filepath.Dir(config.UserFile(home)), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(config.UserFile(home), []byte(hooks), 0o644); err != nil {
		panic(err)
	}
	return home
}
