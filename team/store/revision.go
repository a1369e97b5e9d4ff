package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// hookOptions is what a history row keeps of a hook's options besides
// its script: one line of JSON, compared as text.
func hookOptions(h Hook) string {
	if h.Step == "" { // the sandbox, which has no options
		return ""
	}
	b, err := json.Marshal(struct {
		Step             string   `json:"step"`
		Matcher          string   `json:"matcher"`
		TimeoutSeconds   float64  `json:"timeoutSeconds"`
		FailClosed       bool     `json:"failClosed"`
		Active           bool     `json:"active"`
		OperatingSystems []string `json:"operatingSystems"`
	}{h.Step, h.Matcher, h.TimeoutSeconds, h.FailClosed, h.Active, h.OperatingSystems})
	if err != nil {
		return ""
	}
	return string(b)
}

// RevisionChange is one change of a revision, with the hook's script and
// options before and after it.
type RevisionChange struct {
	Change
	// Before and After are the script (or the sandbox.json); "" where
	// there is none (before a create, after a delete).
	Before, After string
	// BeforeOptions and AfterOptions are the hook's options as JSON.
	BeforeOptions, AfterOptions string
	// Recorded is false for a change made before history kept scripts:
	// Before and After are then unknown.
	Recorded bool
}

// RevisionChanges returns the changes that made a team's revision, each
// with what it changed: the script and options the change left, and
// those the hook's previous change left.
func (s *sqlStore) RevisionChanges(ctx context.Context, teamID, revision int64) ([]RevisionChange, error) {
	if _, err := s.Team(ctx, teamID); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT id, team_id, hook_id, action, actor, at, revision, script_name, script_content, options
		FROM history WHERE team_id = ? AND revision = ? ORDER BY id`), teamID, revision)
	if err != nil {
		return nil, fmt.Errorf("read revision %d of team %d: %w", revision, teamID, err)
	}
	var out []RevisionChange
	for rows.Next() {
		var c RevisionChange
		if err := rows.Scan(&c.ID, &c.TeamID, &c.HookID, &c.Action, &c.Actor, &c.AtMs, &c.Revision, &c.ScriptName, &c.After, &c.AfterOptions); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read revision %d of team %d: %w", revision, teamID, err)
		}
		out = append(out, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		c := &out[i]
		// The hook's previous change (the sandbox's: hook id 0, by name).
		q, args := `SELECT script_content, options FROM history WHERE team_id = ? AND hook_id = ? AND id < ?`, []any{teamID, c.HookID, c.ID}
		if c.HookID == 0 {
			q, args = q+` AND script_name = ?`, append(args, c.ScriptName)
		}
		err := s.db.QueryRowContext(ctx, s.d.rebind(q+` ORDER BY id DESC LIMIT 1`), args...).Scan(&c.Before, &c.BeforeOptions)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("read the change before %d: %w", c.ID, err)
		}
		c.Recorded = c.AfterOptions != "" || c.After != "" || c.Action == ActionSandbox
		switch c.Action {
		case ActionCreate:
			c.Before, c.BeforeOptions = "", ""
		case ActionDelete:
			c.Before, c.BeforeOptions = c.After, c.AfterOptions
			c.After, c.AfterOptions = "", ""
		}
	}
	return out, nil
}
