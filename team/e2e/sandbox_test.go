//go:build unix

package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/sandbox"
	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// TestTeamSandboxFromAPIToMember: an administrator sets the team's
// sandbox.json through the API (a bad one is refused in the sandbox
// parser's words); a member's sync installs it beside the team's hooks;
// the member's sandbox is built with it as a managed layer, which a
// project file cannot loosen.
func TestTeamSandboxFromAPIToMember(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			srv := startServer(t, b.url(t), nil)
			adm := srv.adminClient()
			created, err := adm.CreateTeam(ctx, connect.NewRequest(&teamv1.CreateTeamRequest{Name: "platform"}))
			if err != nil {
				t.Fatal(err)
			}
			id := created.Msg.Team.Id
			tok, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "laptops", Role: "member", TeamId: id}))
			if err != nil {
				t.Fatal(err)
			}
			_, err = adm.SetTeamSandbox(ctx, connect.NewRequest(&teamv1.SetTeamSandboxRequest{TeamId: id, SandboxJson: `{"networkPolicy":{"default":"maybe"}}`}))
			if connect.CodeOf(err) != connect.CodeInvalidArgument || !strings.Contains(err.Error(), "sandbox_json/networkPolicy/default") {
				t.Fatalf("a bad sandbox.json: %v", err)
			}
			res, err := adm.SetTeamSandbox(ctx, connect.NewRequest(&teamv1.SetTeamSandboxRequest{TeamId: id,
				SandboxJson: `{"networkPolicy":{"default":"deny","allow":["github.com"]}}`}))
			if err != nil || res.Msg.Revision != 1 {
				t.Fatalf("SetTeamSandbox: %v, %v", res, err)
			}

			m := newMember(t, srv, tok.Msg.Secret, team.Linux)
			if r := m.sync(t); !r.Changed || r.Revision != 1 {
				t.Fatalf("sync: %+v", r)
			}
			ws := filepath.Join(t.TempDir(), "ws")
			writeFile(t, filepath.Join(ws, ".cursor", "sandbox.json"), `{"networkPolicy":{"default":"allow"}}`)
			loc := config.Locations{EnterpriseFile: filepath.Join(t.TempDir(), "none.json"), Home: m.home, WorkspaceRoots: []string{ws}}
			l := sandbox.Load(loc, trustAll{})
			if err := l.Err(); err != nil {
				t.Fatal(err)
			}
			p := l.Policy
			if !p.Enabled() || p.Network.Default != "deny" || !strings.Contains(p.Network.DefaultFrom, filepath.Join(fmt.Sprintf("team_%d", id), "hooks", "sandbox.json")) {
				t.Fatalf("the member's sandbox: network %+v, files %v", p.Network, p.Files)
			}
		})
	}
}
