package sandbox

import (
	"bytes"
	"encoding/json"
	"net/netip"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agenthooks/agenthooks/config"
)

func TestParseProblems(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string // each a problem's text, in order
	}{
		{"fine", `{"type": "workspace_readonly", "networkPolicy": {"default": "deny", "allow": ["github.com", "*.npmjs.org", "10.0.0.0/8", "::1"]}}`, nil},
		{"not an object", `[1]`, []string{"f.json:1:1: not a JSON object"}},
		{"bad type", "{\n  \"type\": \"rw\"\n}", []string{`f.json:2:11: type: must be "workspace_readwrite", "workspace_readonly" or "insecure_none", got "rw"`}},
		{"url in allow", `{"networkPolicy": {"allow": ["https://github.com/org"]}}`, []string{"networkPolicy.allow[0]: \"https://github.com/org\" is not a host\x00(fix: use \"github.com\")"}},
		{"unknown key", `{"disableTmpWrites": true}`, []string{`warning: disableTmpWrites: unknown key, ignored (fix: did you mean "disableTmpWrite"?)`}},
		{"bool as string", `{"disableTmpWrite": "yes"}`, []string{`disableTmpWrite: must be true or false, got "yes"`}},
		{"tilde user", `{"additionalReadwritePaths": ["~bob/x"]}`, []string{`additionalReadwritePaths[0]: "~bob/x": only ~ and ~/… are expanded`}},
		{"rw with readonly", `{"type": "workspace_readonly", "additionalReadwritePaths": ["/opt"]}`, []string{`warning: additionalReadwritePaths: applies only when type is "workspace_readwrite"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := Parse("f.json", []byte(c.body), User, "")
			if len(f.Problems) != len(c.want) {
				t.Fatalf("got %d problems %v, want %d", len(f.Problems), f.Problems, len(c.want))
			}
			for i, w := range c.want {
				got := f.Problems[i].Error()
				for _, part := range strings.Split(w, "\x00") {
					if !strings.Contains(got, part) {
						t.Errorf("problem %d: %q lacks %q", i, got, part)
					}
				}
			}
		})
	}
}

func TestMergeRules(t *testing.T) {
	p := func(s string) *string { return &s }
	b := func(v bool) *bool { return &v }
	l := func(v ...string) *[]string { return &v }
	ty := func(v Type) *Type { return &v }
	user := &File{Path: "u", Layer: User, Trusted: true, Type: ty(WorkspaceReadonly), NetAllow: l("a.com", "evil.com"), NetDeny: l("x.com"), DisableTmpWrite: b(true)}
	project := &File{Path: "p", Layer: Project, Trusted: true, Type: ty(InsecureNone), NetDefault: p(NetAllow), DisableTmpWrite: b(false), NetAllow: l("b.com")}
	untrusted := &File{Path: "q", Layer: Project, Trusted: false, Type: ty(WorkspaceReadonly)}
	team := &File{Path: "t", Layer: Team, Trusted: true, Type: ty(WorkspaceReadwrite), NetDefault: p(NetDeny), NetAllow: l("*.com")}
	ent := &File{Path: "e", Layer: Enterprise, Trusted: true, NetAllow: l("a.com", "b.com", "c.com"), NetDeny: l("10.0.0.0/8"), WhenUnavailable: p(UnavailableRunOpen)}

	got := merge([]*File{user, project, untrusted, team, ent}, []string{"/w"}, "/h")
	if got.Type != WorkspaceReadwrite || got.TypeFrom != "t" {
		t.Errorf("type %s from %s: the team's workspace_readwrite is stricter than the project's insecure_none", got.Type, got.TypeFrom)
	}
	if got.Network.Default != NetDeny || got.Network.DefaultFrom != "t" {
		t.Errorf("network default %s from %s, want the team's deny", got.Network.Default, got.Network.DefaultFrom)
	}
	var allow, deny []string
	for _, r := range got.Network.Allow {
		allow = append(allow, r.Pattern)
	}
	for _, r := range got.Network.Deny {
		deny = append(deny, r.Pattern)
	}
	// user+project allow a.com, evil.com, b.com; the team's *.com covers
	// them all; the enterprise keeps a.com and b.com.
	if strings.Join(allow, ",") != "a.com,b.com" {
		t.Errorf("allow %v, want the intersection a.com,b.com", allow)
	}
	if strings.Join(deny, ",") != "x.com,10.0.0.0/8" {
		t.Errorf("deny %v, want every layer's", deny)
	}
	if got.DisableTmpWrite {
		t.Error("the project's disableTmpWrite false should win over the user's true (no managed layer sets it)")
	}
	if got.Unavailable != UnavailableRunOpen {
		t.Errorf("whenUnavailable %s: the enterprise sets run_unsandboxed and nothing below is stricter", got.Unavailable)
	}
	if strings.Join(got.Files, ",") != "u,p,t,e" {
		t.Errorf("files %v: the untrusted project file must be left out", got.Files)
	}
	// A managed deny default without allow list allows nothing.
	lock := &File{Path: "e", Layer: Enterprise, Trusted: true, NetDefault: p(NetDeny)}
	if got := merge([]*File{user, lock}, nil, "/h"); len(got.Network.Allow) != 0 {
		t.Errorf("a managed default deny kept the user's allow list: %v", got.Network.Allow)
	}
	if got := merge(nil, nil, "/h"); got.Enabled() {
		t.Error("no file, yet the sandbox is on")
	}
}

func TestNetworkDecisions(t *testing.T) {
	n := Network{Default: NetDeny, DefaultFrom: "f",
		Allow: []Rule{{"github.com", "f"}, {"*.npmjs.org", "f"}, {"10.1.0.0/16", "f"}, {"local.test", "f"}},
		Deny:  []Rule{{"bad.npmjs.org", "g"}}}
	for host, ok := range map[string]bool{"github.com": true, "api.github.com": false, "registry.npmjs.org": true, "npmjs.org": false, "bad.npmjs.org": false, "10.1.2.3": true, "example.com": false} {
		if got := n.checkName(host).ok; got != ok {
			t.Errorf("checkName(%s) = %v, want %v", host, got, ok)
		}
	}
	for _, c := range []struct {
		host, ip string
		ok       bool
	}{
		{"github.com", "140.82.112.3", true},
		{"registry.npmjs.org", "169.254.169.254", false}, // a wildcard never opens metadata
		{"registry.npmjs.org", "127.0.0.1", false},
		{"local.test", "127.0.0.1", true}, // an exact name does
		{"x", "10.1.9.9", true},           // so does a block
	} {
		if got := n.checkAddr(c.host, netipMust(c.ip)).ok; got != c.ok {
			t.Errorf("checkAddr(%s, %s) = %v, want %v", c.host, c.ip, got, c.ok)
		}
	}
	if v := n.checkName("bad.npmjs.org"); !strings.Contains(v.reason, `networkPolicy.deny "bad.npmjs.org" in g`) {
		t.Errorf("the refusal does not name the rule and its file: %s", v.reason)
	}
}

// TestSchemaAgreesWithParse: what Parse calls an error the schema rejects,
// and what Parse accepts the schema accepts.
func TestSchemaAgreesWithParse(t *testing.T) {
	c := jsonschema.NewCompiler()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("sandbox.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sandbox.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{
		`{}`, `{"type": "workspace_readonly"}`, `{"type": "rw"}`, `{"readBoundary": "home"}`,
		`{"disableTmpWrite": 1}`, `{"networkPolicy": {"default": "maybe"}}`, `{"networkPolicy": {"allow": ["http://x"]}}`,
		`{"networkPolicy": {"allow": ["github.com", "*.x.org"], "deny": ["10.0.0.0/8"]}}`, `{"additionalReadwritePaths": "/opt"}`,
		`{"additionalReadwritePaths": ["~/x", "/opt"]}`, `{"whenUnavailable": "never"}`, `{"whenUnavailable": "run_unsandboxed"}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Fatal(err)
		}
		schemaOK := sch.Validate(v) == nil
		parseOK := !Parse("f", []byte(body), User, "").HasErrors()
		if schemaOK != parseOK {
			t.Errorf("%s: schema accepts %v, Parse accepts %v", body, schemaOK, parseOK)
		}
	}
	_ = config.Error
}

func netipMust(s string) netip.Addr { return netip.MustParseAddr(s) }
