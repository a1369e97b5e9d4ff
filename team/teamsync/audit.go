package teamsync

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/state"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// DecisionLog is the local execution log a team's audit reads:
// *state.Store. Its records are already redacted by the log's rules.
type DecisionLog interface {
	LastSeq(ctx context.Context) (int64, error)
	Records(ctx context.Context, q state.Query) ([]state.Entry, error)
}

// Bounds of one sync's upload.
const (
	auditBatch      = 200
	auditMaxBatches = 25
	auditMaxText    = 4096
)

// AuditedOutcomes are the outcomes a team's audit collects: what its
// hooks blocked, asked about, or failed closed on.
var AuditedOutcomes = []string{"deny", "ask", "block", "fail-closed"}

// AuditDescription says what a member machine sends when its team's
// audit is on (sync --show prints it).
const AuditDescription = `for each deny, ask, block or failed failClosed hook of the team's own hooks on this machine:
the time, the step, the outcome and the step's decision, the script, the agent, the conversation id,
the action as the hook saw it (the command, file or tool input) and the hook's message, both
redacted by the local log's rules and cut at 4 KiB; with this machine's id, host name, system,
agenthooks version and wired agents. Only decisions made after this machine learned that the audit
is on are sent.`

// audit sends the team's decisions recorded since the last sync, if the
// team turned its audit on. Nothing is read or sent otherwise. What
// cannot be sent now stays for the next sync: the cursor moves only past
// what the server took. Problems become warnings: the hooks are in place
// whatever the audit does.
func (c *Client) audit(ctx context.Context, p *Plan, res *Result, st *State) {
	if !p.Audit {
		st.AuditOn, st.AuditSeq = false, 0
		return
	}
	log := c.opts.Log
	if log == nil {
		return
	}
	warn := func(err error) { res.Warnings = append(res.Warnings, "audit: "+err.Error()) }
	if !st.AuditOn {
		// Turned on since the last sync: start from now, not from
		// decisions made while nothing was to leave the machine.
		seq, err := log.LastSeq(ctx)
		if err != nil {
			warn(fmt.Errorf("read the local log: %w", err))
			return
		}
		st.AuditOn, st.AuditSeq = true, seq
		return
	}
	dir := config.TeamHooksDir(c.opts.Home, teamFolderID(p.TeamID))
	for range auditMaxBatches {
		entries, err := log.Records(ctx, state.Query{AfterSeq: st.AuditSeq, Source: config.Team.String(), Limit: auditBatch})
		if err != nil {
			warn(fmt.Errorf("read the local log: %w", err))
			return
		}
		if len(entries) == 0 {
			return
		}
		var ds []*teamv1.Decision
		for _, e := range entries {
			if d, ok := decisionOf(e, dir); ok {
				ds = append(ds, d)
			}
		}
		if len(ds) > 0 {
			ans, err := c.upload(ctx, ds, st.Revision)
			if err != nil {
				warn(fmt.Errorf("%d decision(s) not sent, kept for the next sync: %w", len(ds), err))
				return
			}
			if ans.GetRefused() > 0 {
				// Dated ahead of the server's clock or before the retention:
				// sending them again would not change that.
				warn(fmt.Errorf("the server refused %d decision(s) by their time (is this machine's clock right?): %s",
					ans.GetRefused(), printable(strings.Join(ans.GetRefusals(), "; "))))
			}
			res.Uploaded += len(ds)
		}
		st.AuditSeq = entries[len(entries)-1].Seq
	}
}

// upload sends one batch, from this machine with installed installed.
func (c *Client) upload(ctx context.Context, ds []*teamv1.Decision, installed int64) (*teamv1.UploadDecisionsResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	req := connect.NewRequest(&teamv1.UploadDecisionsRequest{Machine: c.machine(installed), Decisions: ds})
	if req.Msg.Machine == nil {
		return nil, fmt.Errorf("this machine has no id to send them under")
	}
	req.Header().Set("Authorization", "Bearer "+c.opts.Token)
	res, err := c.rpc.UploadDecisions(ctx, req)
	if err != nil {
		return nil, c.explain(err)
	}
	return res.Msg, nil
}

// decisionOf turns a log record into a decision of the team's, when it is
// one: from the team's hooks folder dir, with an audited outcome.
func decisionOf(e state.Entry, dir string) (*teamv1.Decision, bool) {
	r := e.Record
	if filepath.Dir(r.File) != dir {
		return nil, false
	}
	audited := false
	for _, o := range AuditedOutcomes {
		audited = audited || r.Outcome == o
	}
	if !audited {
		return nil, false
	}
	return &teamv1.Decision{
		Id:             r.ID,
		AtUnixMs:       r.Time.UnixMilli(),
		Step:           r.Step,
		Outcome:        r.Outcome,
		Decision:       r.Decision,
		ScriptName:     scriptOf(r.Command),
		Agent:          r.Agent,
		ConversationId: r.ConversationID,
		What:           cut(actionOf(r.Payload), auditMaxText),
		Message:        cut(messageOf(r.Response, r.Stderr), auditMaxText),
	}, true
}

// scriptOf finds the script's name in a team hook's command, which runs
// "./NAME" (Command), quoted for the shell or for PowerShell.
func scriptOf(command string) string {
	i := strings.LastIndex(command, "./")
	if i < 0 {
		return ""
	}
	return strings.TrimRight(command[i+2:], `'" `)
}

// actionOf is what the step was about, from its payload: the command,
// the file, the tool and its input, the URL, the prompt.
func actionOf(payload []byte) string {
	var m map[string]any
	if json.Unmarshal(payload, &m) != nil {
		return ""
	}
	var parts []string
	for _, k := range []string{"command", "file_path", "tool_name", "tool_input", "url", "prompt"} {
		v, ok := m[k]
		if !ok || v == nil {
			continue
		}
		s, isString := v.(string)
		if !isString {
			b, _ := json.Marshal(v)
			s = string(b)
		}
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " ")
}

// messageOf is what the hook said: its user or agent message, else its
// reason, else its stderr.
func messageOf(response []byte, stderr string) string {
	var m map[string]any
	if json.Unmarshal(response, &m) == nil {
		for _, k := range []string{"user_message", "userMessage", "agent_message", "agentMessage", "reason", "followup_message"} {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
	}
	return stderr
}

// cut keeps at most n bytes of s, on a character boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
