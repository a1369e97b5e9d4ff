package cli_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/cli"
	"github.com/agenthooks/agenthooks/policy"
)

// TestPolicyVerbCorpus runs every case of the example policies through
// `agenthooks policy FILE`, the verb Cursor runs as a hook: payload on
// stdin with its hook_event_name, Cursor's response on stdout, exit 0.
func TestPolicyVerbCorpus(t *testing.T) {
	for _, name := range []string{"git", "network", "secrets", "rm"} {
		file := filepath.Join("..", "..", "examples", "policies", name+".yaml")
		cases, err := policy.LoadCases(filepath.Join("..", "..", "examples", "policies", name+".cases.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			in := c.Input
			in["hook_event_name"] = string(c.Step)
			payload, _ := json.Marshal(in)
			var out, errOut bytes.Buffer
			code := cli.Execute(&cli.IO{In: bytes.NewReader(payload), Out: &out, Err: &errOut}, []string{"policy", file})
			if code != 0 || errOut.Len() > 0 {
				t.Errorf("%s: %s: exit %d, stderr %q", name, c.Name, code, errOut.String())
				continue
			}
			resp, err := event.ParseResponse(c.Step, out.Bytes())
			if err != nil {
				t.Errorf("%s: %s: the answer %q is not valid for %s: %v", name, c.Name, out.String(), c.Step, err)
				continue
			}
			got := event.NoOpinion
			if resp != nil {
				got = resp.Permission
				if c.Step == event.BeforeSubmitPrompt && resp.Continue != nil && !*resp.Continue {
					got = event.Deny
				}
			}
			if got != c.Expect {
				t.Errorf("%s.cases.yaml:%d %s: printed %s, want %q", name, c.Line, c.Name, strings.TrimSpace(out.String()), c.Expect)
			}
		}
	}
}

func TestPolicyVerbTestExamples(t *testing.T) {
	for _, name := range []string{"git", "network", "secrets", "rm"} {
		dir := filepath.Join("..", "..", "examples", "policies")
		var out, errOut bytes.Buffer
		code := cli.Execute(&cli.IO{In: strings.NewReader(""), Out: &out, Err: &errOut},
			[]string{"policy", "test", filepath.Join(dir, name+".yaml"), "--cases", filepath.Join(dir, name+".cases.yaml")})
		if code != 0 || !strings.Contains(out.String(), " 0 failed") {
			t.Errorf("%s: exit %d\n%s%s", name, code, out.String(), errOut.String())
		}
	}
}
