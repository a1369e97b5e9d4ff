package teamsync

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// Hook is one team hook as it will be installed.
type Hook struct {
	ID               int64
	Step             event.Step
	ScriptName       string
	Command          string // the manifest's command for it
	Matcher          string
	Timeout          float64 // seconds; 0 means the engine's default
	FailClosed       bool
	OperatingSystems []string
	UpdatedBy        string
	UpdatedAt        time.Time
	Script           string
}

// Plan is a checked answer of the server: what a sync would install. It
// is built by Fetch, which writes nothing, and installed by Apply.
type Plan struct {
	Server   string
	TeamID   int64
	TeamName string
	Revision int64
	// Hooks is the set to install, in manifest order. Empty when the
	// server answered "unchanged", which carries no hooks.
	Hooks []Hook
	// Warnings are hooks left out: for another operating system, or
	// inactive though only active ones were asked for.
	Warnings []string
	// Unchanged means the hooks folder already holds exactly this set:
	// Apply writes no hook file, only the sync state.
	Unchanged bool
	// NeedsAcceptance means the set has hooks and this team's hooks were
	// never accepted on this machine (Cursor's first-time notification,
	// docs/team-sync.md); Apply refuses it unless accepted.
	NeedsAcceptance bool
	// Dir is the hooks folder the set goes into.
	Dir string
	// Audit is set when the team collects its members' decisions.
	Audit bool
	// Sandbox is the team's sandbox.json, installed beside the hooks;
	// "" for none.
	Sandbox string

	files   []file            // the manifest and the scripts; nil when Unchanged by the server's word
	digests map[string]string // file name → SHA-256, hex
}

// file is one file of a set.
type file struct {
	name string
	data []byte
	exec bool
}

// RefusedError says why a server's set was refused as a whole: every
// broken rule, each naming its hook.
type RefusedError struct {
	Problems []string
}

func (e *RefusedError) Error() string {
	return "refused the team's hook set (nothing was changed): " + strings.Join(e.Problems, "; ")
}

// hookLabel names a hook in messages; the script name is quoted, as it
// is the server's and may hold anything.
func hookLabel(h *teamv1.TeamHook) string {
	return team.HookLabel(h.GetId(), h.GetScriptName(), h.GetHookStep())
}

// build checks the server's answer and turns it into a plan, or refuses it.
func (c *Client) build(resp *teamv1.GetTeamHooksResponse) (*Plan, error) {
	if resp.GetTeamId() <= 0 {
		return nil, fmt.Errorf("the server's answer names no team (team_id %d)", resp.GetTeamId())
	}
	if resp.GetRevision() < 0 {
		return nil, fmt.Errorf("the server's answer has a negative revision (%d)", resp.GetRevision())
	}
	p := &Plan{
		Server:   c.server,
		TeamID:   resp.GetTeamId(),
		TeamName: resp.GetTeamName(),
		Revision: resp.GetRevision(),
		Audit:    resp.GetAudit(),
		Sandbox:  resp.GetSandboxJson(),
		Dir:      config.TeamHooksDir(c.opts.Home, teamFolderID(resp.GetTeamId())),
	}
	var problems []string
	seen := map[string]*teamv1.TeamHook{}
	for _, h := range resp.GetHooks() {
		if skip := c.skipReason(h); skip != "" {
			p.Warnings = append(p.Warnings, hookLabel(h)+": skipped: "+skip)
			continue
		}
		hook, errs := c.checkHook(h, resp.GetTeamId())
		problems = append(problems, errs...)
		key := team.ScriptNameKey(h.GetScriptName())
		if other, dup := seen[key]; dup && h.GetScriptName() != "" {
			problems = append(problems, hookLabel(h)+": "+team.NameTaken(hookLabel(other)))
		}
		seen[key] = h
		if len(errs) == 0 {
			p.Hooks = append(p.Hooks, hook)
		}
	}
	if p.Sandbox != "" {
		if err := team.CheckSandbox([]byte(p.Sandbox)); err != nil {
			problems = append(problems, "the team's sandbox.json: "+printable(err.Error()))
		}
	}
	if len(problems) > 0 {
		return nil, &RefusedError{Problems: problems}
	}
	if err := p.render(); err != nil {
		return nil, err
	}
	return p, nil
}

// skipReason says why a hook the server sent is not for this machine.
func (c *Client) skipReason(h *teamv1.TeamHook) string {
	if !h.GetIsActive() {
		return "inactive (the server sent it though only active hooks were asked for)"
	}
	oss := h.GetOperatingSystems()
	if len(oss) == 0 {
		return ""
	}
	for _, o := range oss {
		if strings.EqualFold(o, c.opts.OS) {
			return ""
		}
	}
	names := make([]string, len(oss))
	for i, o := range oss {
		names[i] = printable(o)
	}
	return fmt.Sprintf("it targets %s, and this machine is %s", strings.Join(names, ", "), c.opts.OS)
}

// checkHook applies the per-hook rules.
func (c *Client) checkHook(h *teamv1.TeamHook, teamID int64) (Hook, []string) {
	var problems []string
	bad := func(format string, a ...any) {
		problems = append(problems, hookLabel(h)+": "+fmt.Sprintf(format, a...))
	}
	step := event.Step(h.GetHookStep())
	if !step.Known() {
		if s, ok := event.SuggestStep(h.GetHookStep()); ok {
			bad("unknown step %q (did you mean %q?)", printable(h.GetHookStep()), s)
		} else {
			bad("unknown step %q", printable(h.GetHookStep()))
		}
	}
	if err := team.CheckScriptName(h.GetScriptName(), c.opts.OS == team.Windows); err != nil {
		bad("%v", err)
	}
	if n := int64(len(h.GetScriptContent())); n > c.opts.MaxScriptBytes {
		bad("the script is %d bytes, over the limit of %d bytes per script (raise it with --max-script-bytes if that is intended)", n, c.opts.MaxScriptBytes)
	}
	if err := team.CheckTimeout(h.GetTimeoutSeconds()); err != nil {
		bad("timeout_seconds: %v", err)
	}
	if id := h.GetTeamId(); id != 0 && id != teamID {
		bad("it belongs to team %d, not to team %d the answer is for", id, teamID)
	}
	var at time.Time
	if ms := h.GetUpdatedAtUnixMs(); ms > 0 {
		at = time.UnixMilli(ms).UTC()
	}
	return Hook{
		ID:               h.GetId(),
		Step:             step,
		ScriptName:       h.GetScriptName(),
		Command:          team.Command(h.GetScriptName(), c.opts.OS),
		Matcher:          h.GetMatcher(),
		Timeout:          h.GetTimeoutSeconds(),
		FailClosed:       h.GetFailClosed(),
		OperatingSystems: append([]string(nil), h.GetOperatingSystems()...),
		UpdatedBy:        h.GetUpdatedBy(),
		UpdatedAt:        at,
		Script:           h.GetScriptContent(),
	}, problems
}

// render builds the set's files and checks the manifest with the
// engine's own loader: a hook the loader would drop (a matcher that does
// not compile, say) would silently be missing, so the set is refused
// instead.
func (p *Plan) render() error {
	data, err := manifest(p.Hooks)
	if err != nil {
		return err
	}
	parsed := config.ParseFile(filepath.Join(p.Dir, team.ManifestName), data, config.Team, p.Dir, "")
	var problems []string
	for _, pr := range parsed.Problems {
		if pr.Severity == config.Error {
			problems = append(problems, p.describeProblem(pr))
		}
	}
	if len(problems) > 0 {
		return &RefusedError{Problems: problems}
	}
	p.files = append(p.files, file{name: team.ManifestName, data: data})
	if p.Sandbox != "" {
		p.files = append(p.files, file{name: config.SandboxName, data: []byte(p.Sandbox)})
	}
	for _, h := range p.Hooks {
		p.files = append(p.files, file{name: h.ScriptName, data: []byte(h.Script), exec: true})
	}
	p.digests = digests(p.files)
	return nil
}

// describeProblem names the hook a manifest problem is about, found by
// its JSON pointer /hooks/<step>/<index>.
func (p *Plan) describeProblem(pr config.Problem) string {
	parts := strings.Split(pr.Pointer, "/")
	msg := printable(pr.Message)
	if pr.Fix != "" {
		msg += " (fix: " + printable(pr.Fix) + ")"
	}
	if len(parts) >= 4 && parts[1] == "hooks" {
		n := 0
		for _, h := range p.Hooks {
			if string(h.Step) != parts[2] {
				continue
			}
			if fmt.Sprint(n) == parts[3] {
				return fmt.Sprintf("hook %d (%q, %s): %s", h.ID, h.ScriptName, h.Step, msg)
			}
			n++
		}
	}
	return "the manifest would not load: " + msg
}

// digests are the SHA-256 of each file, by name.
func digests(files []file) map[string]string {
	m := make(map[string]string, len(files))
	for _, f := range files {
		sum := sha256.Sum256(f.data)
		m[f.name] = hex.EncodeToString(sum[:])
	}
	return m
}

// teamFolderID is the id part of the team folder's name.
func teamFolderID(id int64) string { return fmt.Sprint(id) }
