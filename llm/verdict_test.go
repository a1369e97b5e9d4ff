package llm

import (
	"strings"
	"testing"
)

func TestParseVerdict(t *testing.T) {
	for _, tc := range []struct {
		in      string
		ok      bool
		reason  string
		problem string // a substring of the problem; "" means valid
	}{
		{in: `{"ok": true, "reason": "read-only"}`, ok: true, reason: "read-only"},
		{in: ` {"reason":"deletes files","ok":false}` + "\n", reason: "deletes files"},
		{in: `{"ok": true}`, ok: true},
		{in: `{"ok": false, "reason": null}`},
		{in: `{"ok": "true"}`, problem: `"ok" must be true or false`},
		{in: `{"ok": 1}`, problem: `"ok" must be true or false`},
		{in: `{"ok": null}`, problem: `"ok" must be true or false`},
		{in: `{"reason": "x"}`, problem: `"ok" is missing`},
		{in: `{"ok": true, "reason": 3}`, problem: `"reason" must be a string`},
		{in: `{"ok": true, "allow": true}`, problem: `unexpected key "allow"`},
		{in: `{"ok": false, "ok": true}`, problem: `key "ok" appears twice`},
		{in: `{"ok": true} {"ok": false}`, problem: "text after the JSON object"},
		{in: `{"ok": true} Done.`, problem: "text after the JSON object"},
		{in: "```json\n{\"ok\": true}\n```", problem: "not JSON"},
		{in: `Yes, it is safe.`, problem: "not JSON"},
		{in: `{"ok": true, "reason": "cut`, problem: "not JSON"},
		{in: `{"ok": tr`, problem: "not JSON"},
		{in: `[true]`, problem: "not a JSON object"},
		{in: `true`, problem: "not a JSON object"},
		{in: "  \n", problem: "empty"},
		{in: `{"decision": "block", "reason": "deletes files"}`, reason: "deletes files"},
		{in: `{"decision":"approve"}`, ok: true},
		{in: `{"decision": "deny"}`, problem: `"decision" must be "block" or "approve"`},
		{in: `{"decision": true}`, problem: `"decision" must be "block" or "approve"`},
		{in: `{"ok": true, "decision": "block"}`, problem: `"ok" and "decision" both given`},
	} {
		ok, reason, problem := parseVerdict([]byte(tc.in))
		if tc.problem == "" {
			if problem != "" || ok != tc.ok || reason != tc.reason {
				t.Errorf("parseVerdict(%q) = %v, %q, %q; want %v, %q, valid", tc.in, ok, reason, problem, tc.ok, tc.reason)
			}
			continue
		}
		if !strings.Contains(problem, tc.problem) {
			t.Errorf("parseVerdict(%q) problem = %q, want it to contain %q", tc.in, problem, tc.problem)
		}
	}
}
