package state

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/audit"
)

func TestRedaction(t *testing.T) {
	long := `{"content":"` + strings.Repeat("é", 20) + `"}` // 2-byte runes
	tests := []struct {
		name                      string
		o                         Options
		payload, response, stderr string
		wantPayload, wantResponse string // JSON as stored
		wantStderr                string
	}{
		{
			name: "keep", o: Options{Redact: RedactKeep},
			payload: `{"command":"TOKEN=abc123 make"}`, response: `{"permission":"allow"}`, stderr: "password: x",
			wantPayload: `{"command":"TOKEN=abc123 make"}`, wantResponse: `{"permission":"allow"}`, wantStderr: "password: x",
		},
		{
			name: "default redacts", o: Options{},
			payload: `{"command":"TOKEN=abc123 make"}`, response: `{"permission":"allow", "agent_message": "used ` + fakeGitHub + `"}`,
			stderr:      "password: x",
			wantPayload: `{"command":"TOKEN=[REDACTED:secret-value] make"}`, wantResponse: `{"permission":"allow", "agent_message": "used [REDACTED:github-token]"}`,
			wantStderr: "password: [REDACTED:secret-value]",
		},
		{
			name: "default keeps what holds no secret", o: Options{},
			payload: long, response: `{"permission":"allow"}`, stderr: "no",
			wantPayload: long, wantResponse: `{"permission":"allow"}`, wantStderr: "no",
		},
		{
			name: "drop", o: Options{Redact: RedactDrop},
			payload: long, response: `{"permission":"allow"}`, stderr: "secret",
			wantPayload: "", wantResponse: "", wantStderr: "",
		},
		{
			// 15 bytes of long end inside the third "é": cut before it.
			name: "truncate", o: Options{Redact: RedactTruncate, TruncateBytes: 15},
			payload: long, response: `{"permission":"allow"}`, stderr: "0123456789abcdefghij",
			wantPayload: jsonString(`{"content":"é` + ellipsis), wantResponse: jsonString(`{"permission":"` + ellipsis),
			wantStderr: "0123456789abcde" + ellipsis,
		},
		{
			name: "truncate redacts first", o: Options{Redact: RedactTruncate, TruncateBytes: 40},
			payload: `{"command":"TOKEN=abc123 make and more and more"}`, response: `{}`, stderr: "TOKEN=abc123 and more and more and more",
			wantPayload: jsonString(`{"command":"TOKEN=[REDACTED:secret-value` + ellipsis), wantResponse: `{}`,
			wantStderr: `TOKEN=[REDACTED:secret-value] and more a` + ellipsis,
		},
		{
			name: "truncate keeps what fits", o: Options{Redact: RedactTruncate},
			payload: long, response: `{}`, stderr: "short",
			wantPayload: long, wantResponse: `{}`, wantStderr: "short",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			s := openTest(t, tt.o)
			rec := testRecord("x")
			rec.Payload, rec.Response, rec.Stderr = json.RawMessage(tt.payload), json.RawMessage(tt.response), tt.stderr
			if err := s.Write(ctx, []audit.Record{rec}); err != nil {
				t.Fatal(err)
			}
			got, err := s.Records(ctx, Query{})
			if err != nil {
				t.Fatal(err)
			}
			r := got[0]
			if string(r.Payload) != tt.wantPayload || string(r.Response) != tt.wantResponse || r.Stderr != tt.wantStderr {
				t.Errorf("stored payload %s, response %s, stderr %q\nwant %s, %s, %q",
					r.Payload, r.Response, r.Stderr, tt.wantPayload, tt.wantResponse, tt.wantStderr)
			}
			if tt.o.Redact == RedactDrop && (r.Payload != nil || r.Response != nil) {
				t.Errorf("dropped payload reads back as %q, %q; want nil", r.Payload, r.Response)
			}
			if _, err := json.Marshal(r); err != nil {
				t.Errorf("stored record does not encode: %v", err)
			}
			// The rest of the record is untouched.
			if r.Command != "x" || r.Outcome != "deny" {
				t.Errorf("redaction touched other fields: %+v", r)
			}
		})
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
