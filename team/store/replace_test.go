package store

import (
	"context"
	"errors"
	"testing"
)

// TestReplaceHooks: a whole set replaces the team's as one revision,
// matched by script name in any case; the same set again makes no
// revision; a stale expected revision changes nothing.
func TestReplaceHooks(t *testing.T) {
	each(t, func(t *testing.T, s Store) {
		ctx := context.Background()
		tm := mustTeam(t, s, "platform")
		if _, _, err := s.CreateHook(ctx, "root", tm.ID, sampleHook("old.sh")); err != nil {
			t.Fatal(err)
		}
		keep, _, err := s.CreateHook(ctx, "root", tm.ID, sampleHook("keep.sh"))
		if err != nil {
			t.Fatal(err)
		}
		changed := sampleHook("Keep.sh") // matched to keep.sh
		changed.ScriptContent = "#!/bin/sh\necho changed\n"
		set := []Hook{changed, sampleHook("new.sh")}
		snap, did, err := s.ReplaceHooks(ctx, "lead", tm.ID, set, 2)
		if err != nil || !did || snap.Team.Revision != 3 || len(snap.Hooks) != 2 {
			t.Fatalf("ReplaceHooks: %+v, %v, %v", snap, did, err)
		}
		if snap.Hooks[0].ID != keep.ID || snap.Hooks[0].ScriptName != "Keep.sh" || snap.Hooks[0].ScriptContent != changed.ScriptContent || snap.Hooks[1].ScriptName != "new.sh" {
			t.Fatalf("the set after: %+v", snap.Hooks)
		}
		hist, err := s.History(ctx, HistoryFilter{TeamID: tm.ID})
		if err != nil {
			t.Fatal(err)
		}
		actions := map[string]string{}
		for _, c := range hist {
			if c.Revision == 3 {
				actions[c.ScriptName] = c.Action
			}
		}
		if len(actions) != 3 || actions["old.sh"] != ActionDelete || actions["Keep.sh"] != ActionUpdate || actions["new.sh"] != ActionCreate {
			t.Fatalf("the history of revision 3: %v", actions)
		}
		diff, err := s.RevisionChanges(ctx, tm.ID, 3)
		if err != nil || len(diff) != 3 {
			t.Fatalf("RevisionChanges(3): %+v, %v", diff, err)
		}
		for _, c := range diff {
			var before, after string
			switch c.ScriptName {
			case "old.sh":
				before = sampleHook("").ScriptContent
			case "Keep.sh":
				before, after = sampleHook("").ScriptContent, changed.ScriptContent
			case "new.sh":
				after = sampleHook("").ScriptContent
			}
			if !c.Recorded || c.Before != before || c.After != after || (c.Action == ActionUpdate) != (c.BeforeOptions != "" && c.AfterOptions != "") {
				t.Errorf("the change of %s in revision 3: %+v", c.ScriptName, c)
			}
		}
		if snap, did, err := s.ReplaceHooks(ctx, "lead", tm.ID, set, 0); err != nil || did || snap.Team.Revision != 3 {
			t.Fatalf("the same set again: %+v, %v, %v", snap.Team, did, err)
		}
		if _, _, err := s.ReplaceHooks(ctx, "lead", tm.ID, []Hook{sampleHook("x.sh")}, 2); !errors.Is(err, ErrStale) {
			t.Fatalf("a stale revision: %v", err)
		}
		var ve *ValidationError
		if _, _, err := s.ReplaceHooks(ctx, "lead", tm.ID, []Hook{sampleHook("a.sh"), sampleHook("A.SH")}, 0); !errors.As(err, &ve) || ve.Field != "hooks[1].script_name" {
			t.Fatalf("two hooks of one name: %v", err)
		}
		if tm2, err := s.Team(ctx, tm.ID); err != nil || tm2.Revision != 3 {
			t.Fatalf("refused replacements changed the team: %+v, %v", tm2, err)
		}
	})
}
