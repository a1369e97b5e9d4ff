package server

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// post sends body to an API method with a content type and returns the
// status and the Connect error's code and message.
func post(t *testing.T, e *env, method, contentType, secret string, body []byte) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest("POST", e.base+"/agenthooks.team.v1."+method, strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http1Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode == http.StatusOK {
		return resp.StatusCode, "", ""
	}
	var ce struct{ Code, Message string }
	if err := json.Unmarshal(out, &ce); err != nil {
		t.Fatalf("%s: %d %s", method, resp.StatusCode, out)
	}
	return resp.StatusCode, ce.Code, ce.Message
}

// TestUnknownFieldsAreRefused: a field the API does not define, in JSON
// or in binary protobuf, at the top or inside a message, and a value of
// the wrong type, are invalid_argument naming the field, and change
// nothing; on each store.
func TestUnknownFieldsAreRefused(t *testing.T) {
	eachBackend(t, func(t *testing.T, e *env) {
		for _, tc := range []struct {
			method, secret, body, field string
		}{
			{"AdminService/SetTeamAudit", e.admin, `{"teamId":1,"enabled":true,"retentionDays":7}`, `"enabled"`},
			{"AdminService/CreateHook", e.admin, `{"teamId":1,"hook":{"hookStep":"stop","scriptName":"a.sh","script":"x"}}`, `"script"`},
			{"AdminService/ListTeams", e.admin, `{"all":true}`, `"all"`},
			{"AdminService/SetTeamAudit", e.admin, `{"teamId":"one","audit":true}`, `teamId`},
			{"AdminService/SetTeamAudit", e.admin, `{"teamId":1,"audit":"yes"}`, `audit`},
			{"TeamHooksService/GetTeamHooks", e.member, `{"activeOnly":true,"os":"Linux"}`, `"os"`},
			{"TeamHooksService/UploadDecisions", e.member, `{"machine":{"id":"m1","hostName":"x"}}`, `"hostName"`},
		} {
			code, status, msg := post(t, e, tc.method, "application/json", tc.secret, []byte(tc.body))
			if code != http.StatusBadRequest || status != "invalid_argument" || !strings.Contains(msg, tc.field) {
				t.Errorf("%s %s: %d %s %q, want invalid_argument naming %s", tc.method, tc.body, code, status, msg, tc.field)
			}
		}
		// Binary: SetTeamAudit with audit on and an extra field 9.
		good, err := proto.Marshal(&teamv1.SetTeamAuditRequest{TeamId: e.team.ID, Audit: true})
		if err != nil {
			t.Fatal(err)
		}
		extra := protowire.AppendVarint(protowire.AppendTag(append([]byte(nil), good...), 9, protowire.VarintType), 7)
		if code, status, msg := post(t, e, "AdminService/SetTeamAudit", "application/proto", e.admin, extra); code != http.StatusBadRequest || status != "invalid_argument" || !strings.Contains(msg, "field number 9") {
			t.Errorf("binary SetTeamAudit with field 9: %d %s %q", code, status, msg)
		}
		// Inside a message: hook with field 40.
		hook, err := proto.Marshal(&teamv1.TeamHook{HookStep: "stop", ScriptName: "a.sh", ScriptContent: "#!/bin/sh\n"})
		if err != nil {
			t.Fatal(err)
		}
		hook = protowire.AppendString(protowire.AppendTag(hook, 40, protowire.BytesType), "x")
		req := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), uint64(e.team.ID))
		req = protowire.AppendBytes(protowire.AppendTag(req, 2, protowire.BytesType), hook)
		if code, status, msg := post(t, e, "AdminService/CreateHook", "application/proto", e.admin, req); code != http.StatusBadRequest || status != "invalid_argument" || !strings.HasPrefix(msg, "hook: ") || !strings.Contains(msg, "field number 40") {
			t.Errorf("binary CreateHook with hook field 40: %d %s %q", code, status, msg)
		}
		if tm, err := e.store.Team(t.Context(), e.team.ID); err != nil || tm.Audit || tm.Revision != 0 {
			t.Fatalf("a refused request changed the team: %+v, %v", tm, err)
		}
		// The same requests, well formed, pass.
		if code, _, msg := post(t, e, "AdminService/SetTeamAudit", "application/json", e.admin, []byte(`{"teamId":1,"audit":true,"auditRetentionDays":7}`)); code != http.StatusOK {
			t.Fatalf("a good SetTeamAudit: %d %s", code, msg)
		}
		if code, _, msg := post(t, e, "AdminService/SetTeamAudit", "application/proto", e.admin, good); code != http.StatusOK {
			t.Fatalf("a good binary SetTeamAudit: %d %s", code, msg)
		}
	})
}

// TestEveryMethodRefusesUnknownFields: each method of both services,
// in JSON and in binary, refuses a field it does not define.
func TestEveryMethodRefusesUnknownFields(t *testing.T) {
	e := start(t, backends[0], nil)
	services := teamv1.File_team_proto.Services()
	n := 0
	for i := range services.Len() {
		sd := services.Get(i)
		secret := e.admin
		if sd.Name() == "TeamHooksService" {
			secret = e.member
		}
		for j := range sd.Methods().Len() {
			method := string(sd.Name()) + "/" + string(sd.Methods().Get(j).Name())
			if code, status, msg := post(t, e, method, "application/json", secret, []byte(`{"noSuchField":1}`)); code != http.StatusBadRequest || status != "invalid_argument" || !strings.Contains(msg, `"noSuchField"`) {
				t.Errorf("%s in JSON: %d %s %q", method, code, status, msg)
			}
			raw := protowire.AppendVarint(protowire.AppendTag(nil, 999, protowire.VarintType), 1)
			if code, status, msg := post(t, e, method, "application/proto", secret, raw); code != http.StatusBadRequest || status != "invalid_argument" || !strings.Contains(msg, "field number 999") {
				t.Errorf("%s in binary: %d %s %q", method, code, status, msg)
			}
			n++
		}
	}
	if n < 17 {
		t.Fatalf("only %d methods were tried", n)
	}
}

// TestMissingRequiredFieldsAreNamed: each method given no fields either
// answers (its fields are all optional) or is invalid_argument starting
// with the name of a field of its request, on each store.
func TestMissingRequiredFieldsAreNamed(t *testing.T) {
	optional := map[string]bool{"GetTeamHooks": true, "ListTeams": true, "ListTokens": true}
	eachBackend(t, func(t *testing.T, e *env) {
		services := teamv1.File_team_proto.Services()
		for i := range services.Len() {
			sd := services.Get(i)
			secret := e.admin
			if sd.Name() == "TeamHooksService" {
				secret = e.member
			}
			for j := range sd.Methods().Len() {
				md := sd.Methods().Get(j)
				code, status, msg := post(t, e, string(sd.Name())+"/"+string(md.Name()), "application/json", secret, []byte(`{}`))
				if optional[string(md.Name())] {
					if code != http.StatusOK {
						t.Errorf("%s with no fields: %d %s %q", md.Name(), code, status, msg)
					}
					continue
				}
				field, _, _ := strings.Cut(msg, ":")
				top, _, _ := strings.Cut(field, ".")
				if status != "invalid_argument" || md.Input().Fields().ByName(protoreflect.Name(top)) == nil {
					t.Errorf("%s with no fields: %d %s %q, want invalid_argument naming a field of %s", md.Name(), code, status, msg, md.Input().Name())
				}
			}
		}
	})
}
