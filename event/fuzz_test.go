package event

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
)

// FuzzParseResponse checks that ParseResponse never panics, that blank
// output is the only way to get (nil, nil), that a returned response only
// holds values its step allows, and that Response.Raw parses back to the
// same response.
func FuzzParseResponse(f *testing.F) {
	seeds := []string{
		"", " \n", "{}", "[]", `"x"`, "null", "{}{}", "{} x", "\xEF\xBB\xBF{}",
		`{"permission":"deny","user_message":"u","agent_message":"a"}`,
		`{"permission":"ask","updated_input":{"command":"npm ci"}}`,
		`{"permission":"allow","new_content":""}`,
		`{"continue":false,"user_message":"blocked"}`,
		`{"env":{"A":"1","B":""},"additional_context":"c","continue":true}`,
		`{"updated_mcp_tool_output":[1,{"a":null}],"additional_context":"c"}`,
		`{"followup_message":"again","permission":"deny"}`,
		`{"permission":"maybe"}`, `{"env":{"A=B":"1"}}`, `{"user_message":"\u0000"}`,
		"{\"user_message\":\"\xff\"}",
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, stepIndex uint8, stdout []byte) {
		step := Step("unknownStep")
		if int(stepIndex) < NumSteps {
			step = Steps[stepIndex]
		}
		resp, err := ParseResponse(step, stdout)
		if err != nil {
			var re *ResponseError
			if !errors.As(err, &re) || len(re.Problems) == 0 {
				t.Fatalf("error %v is not a *ResponseError with problems", err)
			}
			if resp != nil {
				t.Fatal("response returned with an error")
			}
			return
		}
		if resp == nil {
			blank := bytes.TrimPrefix(stdout, utf8BOM)
			if len(bytes.Trim(blank, jsonSpace)) != 0 {
				t.Fatalf("non-blank stdout %q gave no response and no error", stdout)
			}
			return
		}
		if !json.Valid(resp.Raw) || kindOf(resp.Raw) != kindObject {
			t.Fatalf("Raw %q is not a JSON object", resp.Raw)
		}
		sc := schemaFor(step)
		if resp.Permission != NoOpinion && !slices.Contains(sc.permissions, resp.Permission) && resp.Permission != sc.tolerated {
			t.Fatalf("permission %q not allowed for %s", resp.Permission, step)
		}
		again, err := ParseResponse(step, resp.Raw)
		if err != nil {
			t.Fatalf("re-parsing Raw %q: %v", resp.Raw, err)
		}
		if again == nil || !reflect.DeepEqual(*again, *resp) {
			t.Fatalf("re-parse differs:\n%+v\n%+v", again, resp)
		}
	})
}
