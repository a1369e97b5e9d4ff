package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/agenthooks/agenthooks/team"
)

// Breach is a stored hook that breaks a rule the server now applies: a
// row written before the rule existed, or by hand. Members refuse the
// team's whole set while it stays, so the server reports it rather than
// keeping it silently or dropping it.
type Breach struct {
	TeamID     int64
	TeamName   string
	HookID     int64
	ScriptName string
	Field      string
	Problem    string
}

func (b Breach) String() string {
	return fmt.Sprintf("team %q, hook %d (%q): %s: %s", b.TeamName, b.HookID, b.ScriptName, b.Field, b.Problem)
}

// HookBreaches checks a team's hooks against the rules a new hook must
// pass, ValidateHook's and case-insensitively unique script names.
func HookBreaches(t Team, hooks []Hook, maxScriptBytes int) []Breach {
	var out []Breach
	seen := map[string]Hook{}
	for _, h := range hooks {
		add := func(field, problem string) {
			out = append(out, Breach{TeamID: t.ID, TeamName: t.Name, HookID: h.ID, ScriptName: h.ScriptName, Field: field, Problem: problem})
		}
		if err := ValidateHook(h, maxScriptBytes); err != nil {
			var ve *ValidationError
			if errors.As(err, &ve) {
				add(ve.Field, ve.Problem)
			} else {
				add("hook", err.Error())
			}
		}
		key := team.ScriptNameKey(h.ScriptName)
		if other, dup := seen[key]; dup {
			add("script_name", team.NameTaken(team.HookLabel(other.ID, other.ScriptName, other.Step)))
			continue
		}
		seen[key] = h
	}
	return out
}

// Breaches checks every team's hooks (see HookBreaches).
func Breaches(ctx context.Context, s Store, maxScriptBytes int) ([]Breach, error) {
	teams, err := s.ListTeams(ctx)
	if err != nil {
		return nil, err
	}
	var out []Breach
	for _, t := range teams {
		snap, err := s.Hooks(ctx, t.ID, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, HookBreaches(snap.Team, snap.Hooks, maxScriptBytes)...)
	}
	return out, nil
}
