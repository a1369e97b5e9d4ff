package store

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

func TestTeams(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		a := mustTeam(t, s, "platform")
		b := mustTeam(t, s, "data science")
		if a.ID == 0 || b.ID == a.ID || a.Revision != 0 || a.CreatedAtMs == 0 {
			t.Fatalf("teams: %+v %+v", a, b)
		}
		if _, err := s.CreateTeam(ctx, "platform"); !errors.Is(err, ErrConflict) {
			t.Errorf("duplicate name: %v, want ErrConflict", err)
		}
		var ve *ValidationError
		if _, err := s.CreateTeam(ctx, " padded "); !errors.As(err, &ve) || ve.Field != "name" {
			t.Errorf("padded name: %v, want a ValidationError on name", err)
		}
		if got, err := s.Team(ctx, b.ID); err != nil || got != b {
			t.Errorf("Team(%d) = %+v, %v; want %+v", b.ID, got, err, b)
		}
		if got, err := s.TeamByName(ctx, "platform"); err != nil || got != a {
			t.Errorf("TeamByName = %+v, %v; want %+v", got, err, a)
		}
		if _, err := s.Team(ctx, 999); !errors.Is(err, ErrNotFound) {
			t.Errorf("Team(999): %v, want ErrNotFound", err)
		}
		if _, err := s.TeamByName(ctx, "nobody"); !errors.Is(err, ErrNotFound) {
			t.Errorf("TeamByName(nobody): %v, want ErrNotFound", err)
		}
		list, err := s.ListTeams(ctx)
		if err != nil || !reflect.DeepEqual(list, []Team{a, b}) {
			t.Errorf("ListTeams = %+v, %v", list, err)
		}
		if err := s.Ping(ctx); err != nil {
			t.Error(err)
		}
	})
}

func TestHookLifecycle(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		other := mustTeam(t, s, "other")

		h, rev, err := s.CreateHook(ctx, "alice", team.ID, sampleHook("guard.sh"))
		if err != nil {
			t.Fatal(err)
		}
		want := sampleHook("guard.sh")
		want.ID, want.TeamID, want.UpdatedBy, want.UpdatedAtMs = h.ID, team.ID, "alice", h.UpdatedAtMs
		if rev != 1 || !reflect.DeepEqual(h, want) || h.UpdatedAtMs == 0 {
			t.Fatalf("created %+v at revision %d; want %+v at 1", h, rev, want)
		}
		// Another team's change does not move this team's revision.
		if _, _, err := s.CreateHook(ctx, "alice", other.ID, sampleHook("guard.sh")); err != nil {
			t.Fatal(err)
		}

		upd := h
		upd.ScriptContent, upd.OperatingSystems, upd.Matcher = "echo {}\n", nil, ""
		h2, rev, err := s.UpdateHook(ctx, "bob", upd)
		if err != nil || rev != 2 || h2.ScriptContent != "echo {}\n" || h2.OperatingSystems != nil || h2.UpdatedBy != "bob" || h2.TeamID != team.ID {
			t.Fatalf("update: %+v rev %d, %v", h2, rev, err)
		}
		if h3, rev, err := s.SetHookActive(ctx, "carol", h.ID, false); err != nil || rev != 3 || h3.Active || h3.UpdatedBy != "carol" {
			t.Fatalf("deactivate: %+v rev %d, %v", h3, rev, err)
		}
		snap, err := s.Hooks(ctx, team.ID, 0)
		if err != nil || snap.Unchanged || snap.Team.Revision != 3 || len(snap.Hooks) != 1 || snap.Hooks[0].Active || snap.Hooks[0].ScriptContent != "echo {}\n" {
			t.Fatalf("snapshot after 3 changes: %+v, %v", snap, err)
		}
		if _, rev, err := s.SetHookActive(ctx, "carol", h.ID, true); err != nil || rev != 4 {
			t.Fatalf("activate: rev %d, %v", rev, err)
		}
		if rev, err := s.DeleteHook(ctx, "dave", h.ID); err != nil || rev != 5 {
			t.Fatalf("delete: rev %d, %v", rev, err)
		}
		snap, err = s.Hooks(ctx, team.ID, 0)
		if err != nil || snap.Team.Revision != 5 || len(snap.Hooks) != 0 || snap.Hooks == nil {
			t.Fatalf("snapshot after delete: %+v, %v", snap, err)
		}

		hist, err := s.History(ctx, HistoryFilter{TeamID: team.ID})
		if err != nil {
			t.Fatal(err)
		}
		type entry struct {
			action, actor string
			rev           int64
		}
		var got []entry
		for _, c := range hist {
			if c.HookID != h.ID || c.TeamID != team.ID || c.ScriptName != "guard.sh" || c.AtMs == 0 {
				t.Errorf("history entry %+v", c)
			}
			got = append(got, entry{c.Action, c.Actor, c.Revision})
		}
		wantHist := []entry{{"delete", "dave", 5}, {"activate", "carol", 4}, {"deactivate", "carol", 3}, {"update", "bob", 2}, {"create", "alice", 1}}
		if !reflect.DeepEqual(got, wantHist) {
			t.Errorf("history = %v\nwant %v", got, wantHist)
		}
		if created := hist[len(hist)-1]; created.AtMs != h.UpdatedAtMs {
			t.Errorf("create recorded at %d, the hook says %d", created.AtMs, h.UpdatedAtMs)
		}
		if lim, err := s.History(ctx, HistoryFilter{TeamID: team.ID, Limit: 2}); err != nil || len(lim) != 2 || lim[0].Revision != 5 {
			t.Errorf("history limit 2: %+v, %v", lim, err)
		}
		if byHook, err := s.History(ctx, HistoryFilter{HookID: h.ID}); err != nil || len(byHook) != 5 {
			t.Errorf("history of hook %d: %d entries, %v", h.ID, len(byHook), err)
		}
		if _, err := s.History(ctx, HistoryFilter{TeamID: 999}); !errors.Is(err, ErrNotFound) {
			t.Errorf("history of a missing team: %v", err)
		}
		var ve *ValidationError
		if _, err := s.History(ctx, HistoryFilter{}); !errors.As(err, &ve) {
			t.Errorf("history without team: %v", err)
		}
	})
}

func TestHooksKnownRevision(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		for _, name := range []string{"b.sh", "a.sh"} {
			if _, _, err := s.CreateHook(ctx, "alice", team.ID, sampleHook(name)); err != nil {
				t.Fatal(err)
			}
		}
		full, err := s.Hooks(ctx, team.ID, 1) // stale
		if err != nil || full.Unchanged || full.Team.Revision != 2 || len(full.Hooks) != 2 || full.Hooks[0].ScriptName != "b.sh" {
			t.Fatalf("stale revision: %+v, %v", full, err)
		}
		same, err := s.Hooks(ctx, team.ID, 2)
		if err != nil || !same.Unchanged || same.Hooks != nil || same.Team != full.Team {
			t.Fatalf("current revision: %+v, %v", same, err)
		}
		if _, err := s.Hooks(ctx, 999, 0); !errors.Is(err, ErrNotFound) {
			t.Errorf("missing team: %v", err)
		}
	})
}

// TestRejectedChangesLeaveNoTrace: a change that fails, whether caught
// by validation or by the database, moves no revision and writes no
// history: the transaction is all or nothing.
func TestRejectedChangesLeaveNoTrace(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		team := mustTeam(t, s, "platform")
		h, _, err := s.CreateHook(ctx, "alice", team.ID, sampleHook("a.sh"))
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := s.CreateHook(ctx, "alice", team.ID, sampleHook("b.sh"))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.CreateHook(ctx, "x", team.ID, sampleHook("a.sh")); !errors.Is(err, ErrConflict) {
			t.Errorf("same script name: %v, want ErrConflict", err)
		}
		b.ScriptName = "a.sh"
		if _, _, err := s.UpdateHook(ctx, "x", b); !errors.Is(err, ErrConflict) {
			t.Errorf("rename onto another hook's script: %v, want ErrConflict", err)
		}
		bad := h
		bad.Step = "beforeEverything"
		var ve *ValidationError
		if _, _, err := s.UpdateHook(ctx, "x", bad); !errors.As(err, &ve) || ve.Field != "hook_step" {
			t.Errorf("unknown step: %v", err)
		}
		for name, err := range map[string]error{
			"create in a missing team": second(s.CreateHook(ctx, "x", 999, sampleHook("c.sh"))),
			"update a missing hook":    second(s.UpdateHook(ctx, "x", Hook{ID: 999, Step: "stop", ScriptName: "c.sh"})),
			"activate a missing hook":  second(s.SetHookActive(ctx, "x", 999, true)),
			"delete a missing hook":    func() error { _, err := s.DeleteHook(ctx, "x", 999); return err }(),
		} {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("%s: %v, want ErrNotFound", name, err)
			}
		}
		snap, err := s.Hooks(ctx, team.ID, 0)
		if err != nil || snap.Team.Revision != 2 || len(snap.Hooks) != 2 || snap.Hooks[1].ScriptName != "b.sh" {
			t.Errorf("after rejected changes: %+v, %v; want revision 2, unchanged hooks", snap, err)
		}
		if hist, err := s.History(ctx, HistoryFilter{TeamID: team.ID}); err != nil || len(hist) != 2 {
			t.Errorf("history after rejected changes: %d entries, %v; want 2", len(hist), err)
		}
		// The same script name in another team is fine.
		other := mustTeam(t, s, "other")
		if _, _, err := s.CreateHook(ctx, "x", other.ID, sampleHook("a.sh")); err != nil {
			t.Error(err)
		}
	})
}

func second[A, B any](_ A, _ B, err error) error { return err }

func TestMaxScriptBytes(t *testing.T) {
	eachURL(t, func(t *testing.T, url string) {
		s := openT(t, url, Options{MaxScriptBytes: 10})
		team := mustTeam(t, s, "platform")
		h := sampleHook("a.sh")
		h.ScriptContent = "0123456789"
		if _, _, err := s.CreateHook(context.Background(), "x", team.ID, h); err != nil {
			t.Errorf("10 bytes with a limit of 10: %v", err)
		}
		h.ScriptName, h.ScriptContent = "b.sh", "0123456789!"
		var ve *ValidationError
		if _, _, err := s.CreateHook(context.Background(), "x", team.ID, h); !errors.As(err, &ve) || ve.Field != "script_content" {
			t.Errorf("11 bytes with a limit of 10: %v", err)
		}
	})
}
