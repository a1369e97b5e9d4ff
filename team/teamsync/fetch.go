package teamsync

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// Fetch asks the server for the team's active hooks for this operating
// system and checks the answer. It writes nothing. When the hooks folder
// still holds what the last sync wrote, that revision is sent as
// known_revision, and an unchanged team costs an empty answer.
func (c *Client) Fetch(ctx context.Context) (*Plan, error) {
	prev, managed, err := c.previous()
	if managed != nil {
		defer managed.Close()
	}
	if err != nil {
		return nil, err
	}
	known := int64(0)
	if prev != nil && c.intact(managed, prev) {
		known = prev.Revision
	}
	resp, err := c.get(ctx, known)
	if err != nil {
		return nil, err
	}
	if resp.GetUnchanged() {
		if known == 0 {
			return nil, errors.New("the server answered \"unchanged\" to a request for the full set")
		}
		if id := resp.GetTeamId(); id == 0 || id == prev.TeamID {
			name := resp.GetTeamName()
			if name == "" {
				name = prev.TeamName
			}
			return &Plan{Server: c.server, TeamID: prev.TeamID, TeamName: name, Revision: prev.Revision, Audit: resp.GetAudit(),
				Unchanged: true, Dir: config.TeamHooksDir(c.opts.Home, teamFolderID(prev.TeamID))}, nil
		}
		// The token now belongs to another team, whose revision happens
		// to equal ours: ask again for the whole set.
		if resp, err = c.get(ctx, 0); err != nil {
			return nil, err
		}
		if resp.GetUnchanged() {
			return nil, errors.New("the server answered \"unchanged\" to a request for the full set")
		}
	}
	if prev != nil && prev.Server == c.server && resp.GetTeamId() == prev.TeamID && resp.GetRevision() < prev.Revision {
		// A team's revision only grows: an older set is a replayed or
		// stale answer, and taking it could take a hook away.
		return nil, fmt.Errorf("the server answered revision %d of team %d, older than revision %d installed: refused, the installed set is kept "+
			"(if the team server was restored from a backup, remove %s to take its set as new)",
			resp.GetRevision(), prev.TeamID, prev.Revision, config.TeamHooksDir(c.opts.Home, teamFolderID(prev.TeamID)))
	}
	return c.plan(managed, resp)
}

// FetchAll is Fetch without known_revision: the server's whole set,
// checked, whatever is on disk. It writes nothing; it is what a review
// (--show) needs.
func (c *Client) FetchAll(ctx context.Context) (*Plan, error) {
	managed, err := c.openManaged(false)
	if err != nil && !errors.Is(err, errNoFolder) {
		return nil, err
	}
	if managed != nil {
		defer managed.Close()
	}
	resp, err := c.get(ctx, 0)
	if err != nil {
		return nil, err
	}
	if resp.GetUnchanged() {
		return nil, errors.New("the server answered \"unchanged\" to a request for the full set")
	}
	return c.plan(managed, resp)
}

// previous finds the state this server and token last wrote, with the
// managed folder it is in (nil when there is none yet).
func (c *Client) previous() (*State, *os.Root, error) {
	managed, err := c.openManaged(false)
	if errors.Is(err, errNoFolder) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	st, err := c.findState(managed)
	return st, managed, err
}

// intact reports whether the team folder of st holds what st recorded.
func (c *Client) intact(managed *os.Root, st *State) bool {
	folder, err := openTeam(managed, st.TeamID, false)
	if err != nil {
		return false
	}
	defer folder.Close()
	return verify(folder, st) == nil
}

// plan checks the answer against the rules and against what the team
// folder holds: whose it is, whether the set changed, whether it was
// accepted.
func (c *Client) plan(managed *os.Root, resp *teamv1.GetTeamHooksResponse) (*Plan, error) {
	p, err := c.build(resp)
	if err != nil {
		return nil, err
	}
	var st *State
	if managed != nil {
		if st, err = c.teamState(managed, p.TeamID); err != nil {
			return nil, err
		}
	}
	p.NeedsAcceptance = len(p.Hooks) > 0 && (st == nil || !st.Accepted)
	p.Unchanged = st != nil && sameDigests(st.Files, p.digests) && c.intact(managed, st)
	return p, nil
}

// teamState reads the state of team id and checks that this server owns
// the folder: team ids are only unique per server, and a folder synced
// from another server (or made by something else) is not overwritten.
func (c *Client) teamState(managed *os.Root, id int64) (*State, error) {
	folder := "team_" + teamFolderID(id)
	path := config.TeamHooksDir(c.opts.Home, teamFolderID(id))
	fi, err := managed.Lstat(folder)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("inspect the folder of team %d: %w", id, err)
	}
	if err := plainDir(filepath.Dir(path), fi); err != nil {
		return nil, err
	}
	st, err := readState(managed, folder)
	if err != nil {
		return nil, fmt.Errorf("team folder of team %d: %w", id, err)
	}
	if st == nil {
		if _, err := managed.Lstat(filepath.Join(folder, liveName)); err == nil {
			return nil, fmt.Errorf("%s exists but was not written by agenthooks sync (no %s next to it); move it away, then sync again", path, stateName)
		}
		return nil, nil
	}
	if st.Server != c.server {
		return nil, fmt.Errorf("team %d's folder is synced from %s, not from %s; to sync it from here instead, remove %s", id, st.Server, c.server, filepath.Dir(path))
	}
	if st.TeamID != id {
		return nil, fmt.Errorf("%s records team %d, not %d; remove the folder and sync again", path, st.TeamID, id)
	}
	return st, nil
}

// retryDelays are the waits between attempts of a call the server
// answers with "unavailable" (its database does not answer, it is
// restarting, or it cannot be reached): a brief outage costs a member a
// few seconds, not a failed sync, and a long one fails within 4 s.
var retryDelays = []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second}

// get calls GetTeamHooks, bounded as a whole by the client's timeout,
// and tries again after each retryDelays while the server is unavailable.
func (c *Client) get(ctx context.Context, known int64) (*teamv1.GetTeamHooksResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		req := connect.NewRequest(&teamv1.GetTeamHooksRequest{
			ActiveOnly:      true,
			OperatingSystem: c.opts.OS,
			KnownRevision:   known,
			Machine:         c.machine(known),
		})
		req.Header().Set("Authorization", "Bearer "+c.opts.Token)
		resp, err := c.rpc.GetTeamHooks(ctx, req)
		if err == nil {
			if resp.Msg == nil {
				return nil, fmt.Errorf("%s answered nothing", c.server)
			}
			return resp.Msg, nil
		}
		if connect.CodeOf(err) != connect.CodeUnavailable || redirected(err) || attempt == len(retryDelays) || !wait(ctx, retryDelays[attempt]) {
			return nil, c.explain(err)
		}
	}
}

// redirected reports an error that is the refusal of a redirect
// (noRedirects).
func redirected(err error) bool {
	var r *redirectError
	return errors.As(err, &r)
}

// wait sleeps for d, unless ctx ends first or would end before d passes.
func wait(ctx context.Context, d time.Duration) bool {
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < d {
		return false
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// explain turns an RPC error into what the user can act on.
func (c *Client) explain(err error) error {
	hint := ""
	switch connect.CodeOf(err) {
	case connect.CodeUnauthenticated:
		hint = " (the server refused the token: check " + TokenEnv + ")"
	case connect.CodePermissionDenied:
		hint = " (the token may not read team hooks: use a member token)"
	case connect.CodeDeadlineExceeded:
		hint = fmt.Sprintf(" (no answer within %s)", c.opts.Timeout)
	case connect.CodeUnavailable:
		if !redirected(err) {
			hint = " (the server cannot be reached)"
		}
	}
	return &rpcError{server: c.server, err: err, hint: hint}
}

// rpcError is a failed call. Its message quotes the server, so it is
// made printable: a hostile server must not write escape sequences to
// the user's terminal.
type rpcError struct {
	server, hint string
	err          error
}

func (e *rpcError) Error() string {
	return "get team hooks from " + e.server + ": " + printable(e.err.Error()) + e.hint
}

func (e *rpcError) Unwrap() error { return e.err }
