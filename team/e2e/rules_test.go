//go:build unix

package e2e

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// TestServerRefusesWhatMembersRefuse: for each hook a member machine
// refuses (so that its sync keeps the last good set until an administrator
// acts), the server refuses to create it, in the member's own words. Each
// case is first planted in the database behind the server's back, as a
// row from an older server would be: the member's sync refuses it, the
// admin API and the server's start-up check report it, and creating the
// same hook through the API is refused with the message the member gave.
func TestServerRefusesWhatMembersRefuse(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { testServerRefusesWhatMembersRefuse(t, b) })
	}
}

type ruleCase struct {
	name     string
	systems  []string
	timeout  float64
	memberOS string
	// taken is a hook the team holds already, whose name the case's
	// differs from only in case.
	taken string
}

var refusedCases = []ruleCase{
	{name: "Guard.sh", taken: "guard.sh", memberOS: team.Linux},
	{name: "timeout-huge.sh", timeout: 1e10, memberOS: team.Linux},
	{name: "timeout-tiny.sh", timeout: 1e-10, memberOS: team.Linux},
	{name: "aux.ps1", systems: []string{team.Windows}, memberOS: team.Windows},
	{name: "CON", memberOS: team.Windows},
	{name: "nul.txt", memberOS: team.Windows},
	{name: "COM1.ps1", systems: []string{team.Windows, team.Linux}, memberOS: team.Windows},
	{name: "LPT9.bat", memberOS: team.Windows},
}

func testServerRefusesWhatMembersRefuse(t *testing.T, b backend) {
	ctx := context.Background()
	dbURL := b.url(t)
	srv := startServer(t, dbURL, nil)
	adm := srv.adminClient()
	newTeam := func(name string) (int64, string) {
		t.Helper()
		created, err := adm.CreateTeam(ctx, connect.NewRequest(&teamv1.CreateTeamRequest{Name: name}))
		if err != nil {
			t.Fatal(err)
		}
		tok, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: name + "-member", Role: "member", TeamId: created.Msg.Team.Id}))
		if err != nil {
			t.Fatal(err)
		}
		return created.Msg.Team.Id, tok.Msg.Secret
	}
	hook := func(name string, systems []string, timeout float64) *teamv1.TeamHook {
		return &teamv1.TeamHook{HookStep: "beforeShellExecution", ScriptName: name, OperatingSystems: systems,
			IsActive: true, ScriptContent: denyScript("no"), Matcher: "^git push", TimeoutSeconds: timeout}
	}
	create := func(teamID int64, h *teamv1.TeamHook) (*teamv1.TeamHook, error) {
		res, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: teamID, Hook: h}))
		if err != nil {
			return nil, err
		}
		return res.Msg.Hook, nil
	}
	mustCreate := func(teamID int64, h *teamv1.TeamHook) *teamv1.TeamHook {
		t.Helper()
		out, err := create(teamID, h)
		if err != nil {
			t.Fatalf("CreateHook %q: %v", h.ScriptName, err)
		}
		return out
	}

	var planted []int64
	for i, c := range refusedCases {
		// The planted team, as an older server left it.
		oldTeam, token := newTeam(fmt.Sprintf("old-%d", i))
		var takenOld *teamv1.TeamHook
		if c.taken != "" {
			takenOld = mustCreate(oldTeam, hook(c.taken, c.systems, 0))
		}
		row := mustCreate(oldTeam, hook(fmt.Sprintf("valid-%d.sh", i), c.systems, 5))
		plant(t, dbURL, row.Id, c.name, c.timeout)
		planted = append(planted, row.Id)
		label := team.HookLabel(row.Id, c.name, row.HookStep)

		// The member refuses the set; its words are the reference.
		m := newMember(t, srv, token, c.memberOS)
		_, err := m.client.Sync(ctx, teamsync.AcceptAll)
		var refused *teamsync.RefusedError
		if !errors.As(err, &refused) {
			t.Fatalf("%s: the member's sync: %v, want the set refused", c.name, err)
		}
		var said string
		for _, p := range refused.Problems {
			if rest, ok := strings.CutPrefix(p, label+": "); ok {
				said = rest
			}
		}
		if said == "" {
			t.Fatalf("%s: the member refused the set for %q, and nothing about %s", c.name, refused.Problems, label)
		}

		// The admin API reports the planted row.
		list, err := adm.ListHooks(ctx, connect.NewRequest(&teamv1.ListHooksRequest{TeamId: oldTeam}))
		if err != nil {
			t.Fatal(err)
		}
		reported := false
		for _, p := range list.Msg.Problems {
			reported = reported || p.HookId == row.Id && p.Problem != ""
		}
		if !reported {
			t.Errorf("%s: ListHooks reports %v, not hook %d", c.name, list.Msg.Problems, row.Id)
		}

		// A clean team: creating the same hook is refused in the member's words.
		newT, _ := newTeam(fmt.Sprintf("new-%d", i))
		if c.taken != "" {
			takenNew := mustCreate(newT, hook(c.taken, c.systems, 0))
			said = strings.ReplaceAll(said, team.HookLabel(takenOld.Id, c.taken, takenOld.HookStep),
				team.HookLabel(takenNew.Id, c.taken, takenNew.HookStep))
		}
		_, err = create(newT, hook(c.name, c.systems, c.timeout))
		var ce *connect.Error
		if !errors.As(err, &ce) || (ce.Code() != connect.CodeInvalidArgument && ce.Code() != connect.CodeAlreadyExists) {
			t.Errorf("%s: CreateHook: %v, want it refused", c.name, err)
			continue
		}
		if !strings.Contains(ce.Message(), said) {
			t.Errorf("%s: CreateHook refused with\n\t%s\nnot in the member's words\n\t%s", c.name, ce.Message(), said)
		}
		// Renaming a valid hook into the case is refused the same way.
		if c.taken != "" {
			other := mustCreate(newT, hook("other.sh", c.systems, 0))
			other.ScriptName = c.name
			_, err := adm.UpdateHook(ctx, connect.NewRequest(&teamv1.UpdateHookRequest{Hook: other}))
			if connect.CodeOf(err) != connect.CodeAlreadyExists || !strings.Contains(err.Error(), said) {
				t.Errorf("%s: UpdateHook into a taken name: %v", c.name, err)
			}
		}
	}

	// The server's start-up check finds every planted row.
	breaches, err := store.Breaches(ctx, srv.store, store.DefaultMaxScriptBytes)
	if err != nil {
		t.Fatal(err)
	}
	found := map[int64]bool{}
	for _, br := range breaches {
		found[br.HookID] = true
	}
	for i, id := range planted {
		if !found[id] {
			t.Errorf("%s (hook %d) is not among the breaches %v", refusedCases[i].name, id, breaches)
		}
	}
	if len(breaches) != len(planted) {
		t.Errorf("%d breaches for %d planted rows: %v", len(breaches), len(planted), breaches)
	}

	// Names Windows refuses are fine for hooks that never reach Windows.
	created, _ := newTeam("unix")
	for _, h := range []*teamv1.TeamHook{hook("aux.ps1", []string{team.Linux}, 0), hook("CON", []string{team.Linux, team.Macintosh}, 30)} {
		mustCreate(created, h)
	}
}

// plant rewrites a hook's name and timeout in the database directly, and
// bumps its team's revision as any change does.
func plant(t *testing.T, dbURL string, id int64, name string, timeout float64) {
	t.Helper()
	driver, dsn := "pgx", dbURL
	path, sqlite := strings.CutPrefix(dbURL, "sqlite:")
	if sqlite {
		driver, dsn = "sqlite", path
	}
	arg := func(n int) string { // the n-th placeholder, in the driver's syntax
		if sqlite {
			return "?"
		}
		return fmt.Sprintf("$%d", n)
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, "UPDATE hooks SET script_name = "+arg(1)+", timeout_seconds = "+arg(2)+" WHERE id = "+arg(3), name, timeout, id); err != nil {
		t.Fatalf("plant %q: %v", name, err)
	}
	if _, err := db.ExecContext(ctx, "UPDATE teams SET revision = revision + 1 WHERE id = (SELECT team_id FROM hooks WHERE id = "+arg(1)+")", id); err != nil {
		t.Fatalf("plant %q: %v", name, err)
	}
}
