package event

import (
	"strings"
	"testing"
)

// TestParseResponseCamelCase: the camelCase spellings older Cursor
// documentation and SDKs use are read as the snake_case fields, and the
// snake_case key wins when a hook prints both.
func TestParseResponseCamelCase(t *testing.T) {
	r, err := ParseResponse(BeforeShellExecution, []byte(`{"permission":"deny","userMessage":"no rm","agentMessage":"use trash"}`))
	if err != nil || r.Permission != Deny || r.UserMessage != "no rm" || r.AgentMessage != "use trash" {
		t.Fatalf("camelCase deny = %+v, %v", r, err)
	}
	r, err = ParseResponse(PreToolUse, []byte(`{"updatedInput":{"command":"ls"},"user_message":"snake","userMessage":"camel"}`))
	if err != nil || string(r.UpdatedInput) != `{"command":"ls"}` || r.UserMessage != "snake" {
		t.Fatalf("preToolUse = %+v, %v", r, err)
	}
	r, err = ParseResponse(Stop, []byte(`{"followupMessage":"go on"}`))
	if err != nil || r.FollowupMessage != "go on" {
		t.Fatalf("stop = %+v, %v", r, err)
	}
	r, err = ParseResponse(PostToolUse, []byte(`{"additionalContext":"ctx","updatedMCPToolOutput":{"a":1}}`))
	if err != nil || r.AdditionalContext != "ctx" || string(r.UpdatedMCPToolOutput) != `{"a":1}` {
		t.Fatalf("postToolUse = %+v, %v", r, err)
	}
	r, err = ParseResponse(BeforeReadFile, []byte(`{"newContent":""}`))
	if err != nil || r.NewContent == nil || *r.NewContent != "" {
		t.Fatalf("beforeReadFile = %+v, %v", r, err)
	}
	// A camelCase key of the wrong type is named as printed.
	_, err = ParseResponse(BeforeShellExecution, []byte(`{"userMessage":3}`))
	if err == nil || !strings.Contains(err.Error(), `"userMessage"`) {
		t.Fatalf("wrong type: %v", err)
	}
}
