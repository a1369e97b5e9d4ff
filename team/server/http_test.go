package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

func httpGet(t *testing.T, url string) (int, string, http.Header) {
	t.Helper()
	resp, err := http1Client().Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

// TestConnectJSON calls the API as the docs' curl walkthrough does: a
// plain POST of JSON.
func TestConnectJSON(t *testing.T) {
	e := start(t, backends[0], nil)
	post := func(path, secret, body string) (int, map[string]any) {
		t.Helper()
		req, err := http.NewRequest("POST", e.base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+secret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, out
	}
	code, out := post("/agenthooks.team.v1.AdminService/CreateHook", e.admin,
		`{"teamId": 1, "hook": {"hookStep": "beforeShellExecution", "scriptName": "no-push.sh", "scriptContent": "#!/bin/sh\necho '{\"permission\":\"deny\"}'\n", "matcher": "^git push", "isActive": true}}`)
	if code != 200 || out["revision"] != "1" {
		t.Fatalf("CreateHook: %d %v", code, out)
	}
	code, out = post("/agenthooks.team.v1.TeamHooksService/GetTeamHooks", e.member, `{"activeOnly": true, "knownRevision": "1"}`)
	if code != 200 || out["unchanged"] != true || out["teamName"] != "platform" {
		t.Fatalf("GetTeamHooks: %d %v", code, out)
	}
	code, out = post("/agenthooks.team.v1.AdminService/CreateHook", e.admin, `{"teamId": 1, "hook": {"hookStep": "nope", "scriptName": "x.sh"}}`)
	if code != 400 || out["code"] != "invalid_argument" || !strings.HasPrefix(out["message"].(string), "hook_step: ") {
		t.Fatalf("invalid CreateHook: %d %v", code, out)
	}
	code, out = post("/agenthooks.team.v1.AdminService/ListTeams", "", `{}`)
	if code != 401 || out["code"] != "unauthenticated" {
		t.Fatalf("no token: %d %v", code, out)
	}
}

func TestHealthz(t *testing.T) {
	st := openStore(t, backends[0], store.Options{})
	down := &failingPing{Store: st}
	e := start(t, backends[0], func(c *Config) { c.Store = down })
	if code, body, _ := httpGet(t, e.base+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("healthy: %d %q", code, body)
	}
	down.fail = true
	if code, body, _ := httpGet(t, e.base+"/healthz"); code != 503 || strings.Contains(body, "secret-host") {
		t.Errorf("database down: %d %q", code, body)
	}
}

type failingPing struct {
	store.Store
	fail bool
}

func (f *failingPing) Ping(ctx context.Context) error {
	if f.fail {
		return errors.New("dial secret-host:5432: connection refused")
	}
	return f.Store.Ping(ctx)
}

func TestRootHandler(t *testing.T) {
	e := start(t, backends[0], nil)
	if code, _, _ := httpGet(t, e.base+"/"); code != 404 {
		t.Errorf("no dashboard: / is %d, want 404", code)
	}
	dash := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "dashboard "+r.URL.Path) })
	e = start(t, backends[0], func(c *Config) { c.Root = dash })
	if code, body, _ := httpGet(t, e.base+"/teams/1"); code != 200 || body != "dashboard /teams/1" {
		t.Errorf("dashboard: %d %q", code, body)
	}
	if code, body, _ := httpGet(t, e.base+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("healthz beside the dashboard: %d %q", code, body)
	}
	// The API is still the API.
	if _, err := e.hooksClient(e.member, protocols[0]).GetTeamHooks(context.Background(), connect.NewRequest(&teamv1.GetTeamHooksRequest{})); err != nil {
		t.Error(err)
	}
}

// TestMetrics checks the exposition with Prometheus's own parser, and
// the counts against the calls made.
func TestMetrics(t *testing.T) {
	e := start(t, backends[0], nil)
	ctx := context.Background()
	hc := e.hooksClient(e.member, protocols[2])
	for range 3 {
		if _, err := hc.GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{})); err != nil {
			t.Fatal(err)
		}
	}
	_, err := e.hooksClient("ah_nope", protocols[0]).GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{}))
	wantCode(t, "bad token", err, connect.CodeUnauthenticated)

	code, body, hdr := httpGet(t, e.base+"/metrics")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("/metrics: %d %s", code, hdr.Get("Content-Type"))
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	families, err := p.TextToMetricFamilies(strings.NewReader(body))
	if err != nil {
		t.Fatalf("Prometheus cannot parse /metrics: %v\n%s", err, body)
	}
	find := func(name, code string) *dto.Metric {
		f := families[name]
		if f == nil {
			t.Fatalf("no %s in\n%s", name, body)
		}
		for _, m := range f.Metric {
			labels := map[string]string{}
			for _, l := range m.Label {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["procedure"] == "/agenthooks.team.v1.TeamHooksService/GetTeamHooks" && labels["code"] == code {
				return m
			}
		}
		t.Fatalf("no %s for GetTeamHooks, %s in\n%s", name, code, body)
		return nil
	}
	if n := find("agenthooks_team_requests_total", "ok").GetCounter().GetValue(); n != 3 {
		t.Errorf("ok count %v, want 3", n)
	}
	if n := find("agenthooks_team_requests_total", "unauthenticated").GetCounter().GetValue(); n != 1 {
		t.Errorf("unauthenticated count %v, want 1", n)
	}
	h := find("agenthooks_team_request_duration_seconds", "ok").GetHistogram()
	if h.GetSampleCount() != 3 || h.GetSampleSum() <= 0 || len(h.Bucket) != len(durationBuckets)+1 {
		t.Errorf("histogram: %v", h)
	}
	if last := h.Bucket[len(h.Bucket)-2]; last.GetUpperBound() != 10 || last.GetCumulativeCount() != 3 {
		t.Errorf("10 s bucket: %v", last)
	}
}
