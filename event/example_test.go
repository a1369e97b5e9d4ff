package event_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agenthooks/agenthooks/event"
)

// A host builds a step's input as a typed value; it marshals to the
// payload a hook reads on stdin, every common key present (null where
// unknown), as Cursor sends it.
func ExampleBeforeShellExecutionInput() {
	in := event.BeforeShellExecutionInput{
		Common: event.Common{
			ConversationID: "conv-1",
			GenerationID:   "gen-1",
			HookEventName:  event.BeforeShellExecution,
			WorkspaceRoots: []string{"/src/app"}, // non-nil: [] rather than null
		},
		Command: "git push origin main",
		Cwd:     "/src/app",
	}
	b, err := json.Marshal(in)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(in.Step())
	fmt.Println(string(b))
	// Output:
	// beforeShellExecution
	// {"conversation_id":"conv-1","generation_id":"gen-1","model":"","hook_event_name":"beforeShellExecution","cursor_version":"","workspace_roots":["/src/app"],"user_email":null,"transcript_path":null,"command":"git push origin main","cwd":"/src/app","sandbox":false}
}

// A hook written in Go answers with the step's typed output; the zero
// output marshals to {}, which is "no opinion".
func ExampleBeforeShellExecutionOutput() {
	for _, out := range []event.BeforeShellExecutionOutput{
		{},
		{Permission: event.Deny, UserMessage: "pushing is for CI", AgentMessage: "Open a pull request instead."},
	} {
		b, err := json.Marshal(out)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(string(b))
	}
	// Output:
	// {}
	// {"permission":"deny","user_message":"pushing is for CI","agent_message":"Open a pull request instead."}
}

// ParseResponse checks what a hook printed against its step's schema and
// normalises it into a Response. Empty output is no opinion (nil, nil);
// an answer that breaks the schema is a *ResponseError naming every
// problem, which the engine counts as the hook failing.
func ExampleParseResponse() {
	answers := []string{
		`{"permission":"deny","user_message":"pushing is for CI","extra":"ignored"}`,
		"  \n",
		`{"permission":"maybe","user_message":42}`,
		`{"permission":"deny"} trailing`,
	}
	for _, stdout := range answers {
		r, err := event.ParseResponse(event.BeforeShellExecution, []byte(stdout))
		var re *event.ResponseError
		switch {
		case errors.As(err, &re):
			fmt.Println("invalid", re.Step, "answer:")
			for _, p := range re.Problems {
				fmt.Println("  -", p)
			}
		case err != nil:
			fmt.Println("error:", err)
		case r == nil:
			fmt.Println("no opinion")
		default:
			fmt.Printf("permission=%s user=%q raw=%s\n", r.Permission, r.UserMessage, r.Raw)
		}
	}
	// Output:
	// permission=deny user="pushing is for CI" raw={"permission":"deny","user_message":"pushing is for CI","extra":"ignored"}
	// no opinion
	// invalid beforeShellExecution answer:
	//   - field "permission": must be "allow", "deny" or "ask", got "maybe"
	//   - field "user_message": must be a string, got number
	// invalid beforeShellExecution answer:
	//   - trailing data after the JSON object at byte 22
}
