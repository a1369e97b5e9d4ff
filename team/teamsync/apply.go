package teamsync

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ErrNotAccepted is returned (wrapped in a *NotAcceptedError) when a
// team's hooks would be installed for the first time without the user's
// acknowledgement.
var ErrNotAccepted = errors.New("the team's hooks were not accepted")

// NotAcceptedError carries the plan that was not accepted, so the caller
// can show the notice.
type NotAcceptedError struct{ Plan *Plan }

func (e *NotAcceptedError) Error() string {
	return fmt.Sprintf("team %d's hooks are not installed: they must be accepted the first time; review them (agenthooks sync --show), then run agenthooks sync --accept", e.Plan.TeamID)
}

func (e *NotAcceptedError) Unwrap() error { return ErrNotAccepted }

// Result is what Apply did.
type Result struct {
	TeamID   int64
	TeamName string
	Revision int64
	// Changed is true when a new set was swapped in; false when the
	// folder already held it (only sync.json was updated).
	Changed bool
	// Hooks is the number of hooks installed; -1 when unknown (the
	// server answered "unchanged").
	Hooks    int
	Dir      string
	Warnings []string
	// Uploaded counts the decisions sent to the team's audit.
	Uploaded int
}

// Apply installs the plan. accept acknowledges a team's hooks the first
// time (Plan.NeedsAcceptance); without it Apply writes nothing and returns
// a *NotAcceptedError. A plan whose set is already on disk writes no hook
// file. Otherwise the whole set is written into a staging folder and
// swapped in (see the package documentation), so readers never see part
// of it, and the folder of the last good set is kept whenever anything
// fails.
func (c *Client) Apply(ctx context.Context, p *Plan, accept bool) (*Result, error) {
	if p.NeedsAcceptance && !accept {
		return nil, &NotAcceptedError{Plan: p}
	}
	managed, err := c.openManaged(true)
	if err != nil {
		return nil, err
	}
	defer managed.Close()
	folder, err := openTeam(managed, p.TeamID, true)
	if err != nil {
		return nil, err
	}
	defer folder.Close()
	unlock, err := lockTeam(ctx, folder)
	if err != nil {
		return nil, err
	}
	defer unlock()

	// Under the lock, the folder may have changed since Fetch looked.
	st, err := c.teamState(managed, p.TeamID)
	if err != nil {
		return nil, err
	}
	restore(folder)
	removeLeftovers(folder)

	res := &Result{TeamID: p.TeamID, TeamName: p.TeamName, Revision: p.Revision, Hooks: len(p.Hooks), Dir: p.Dir, Warnings: p.Warnings}
	next := State{Server: c.server, TokenID: c.tokenID, TeamID: p.TeamID, TeamName: p.TeamName, Revision: p.Revision}
	if st != nil {
		next.Accepted, next.AcceptedAt, next.Files = st.Accepted, st.AcceptedAt, st.Files
		next.AuditOn, next.AuditSeq = st.AuditOn, st.AuditSeq
		if next.TeamName == "" {
			next.TeamName = st.TeamName
		}
	}
	if p.NeedsAcceptance && !next.Accepted {
		next.Accepted, next.AcceptedAt = true, time.Now().UTC()
	}

	if p.files == nil { // unchanged by the server's word: check it still holds
		if st == nil || verify(folder, st) != nil {
			return nil, errors.New("the team folder changed while syncing; run the sync again")
		}
		res.Hooks = -1
		next.Revision = st.Revision
		return res, c.finish(ctx, folder, p, res, &next)
	}
	if st != nil && sameDigests(st.Files, p.digests) && verify(folder, st) == nil {
		return res, c.finish(ctx, folder, p, res, &next)
	}

	if st == nil {
		// Claim the folder before anything is in it, so an interrupted
		// first sync leaves a folder the next one recognises as its own.
		claim := next
		claim.Revision, claim.Files = 0, nil
		if err := writeState(folder, &claim); err != nil {
			return nil, err
		}
	}
	if err := c.install(ctx, folder, p); err != nil {
		return nil, err
	}
	res.Changed = true
	next.Files = p.digests
	return res, c.finish(ctx, folder, p, res, &next)
}

// finish uploads the team's audit, if the team turned it on, and records
// a successful sync. It runs under the team's lock, so that two syncs
// never send the same decisions.
func (c *Client) finish(ctx context.Context, folder *os.Root, p *Plan, res *Result, st *State) error {
	c.audit(ctx, p, res, st)
	st.LastSuccess = time.Now().UTC()
	return writeState(folder, st)
}

// install writes the set into a fresh staging folder and swaps it in.
func (c *Client) install(ctx context.Context, folder *os.Root, p *Plan) error {
	stage := stagePrefix + randomSuffix()
	if err := folder.Mkdir(stage, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Join(folder.Name(), stage), err)
	}
	keep := false
	defer func() {
		if !keep {
			folder.RemoveAll(stage)
		}
	}()
	for _, f := range p.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if f.exec {
			mode = 0o755
		}
		if err := writeFile(folder, filepath.Join(stage, f.name), f.data, mode); err != nil {
			return err
		}
	}
	if err := syncDir(folder, stage); err != nil {
		return err
	}
	old, err := swap(ctx, folder, stage)
	if err != nil {
		return fmt.Errorf("swap in the new hooks folder: %w", err)
	}
	keep = old == stage // after an exchange the staging name holds the old set
	if old != "" {
		// The old set is out of sight already; a failure to delete it
		// (a Windows process still inside) is retried by the next sync.
		_ = folder.RemoveAll(old)
	}
	return syncDir(folder, ".")
}

// restore puts back a set that an interrupted rename sequence left
// aside: the live folder missing and an old one present.
func restore(folder *os.Root) {
	if _, err := folder.Lstat(liveName); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	olds := leftovers(folder, oldPrefix)
	if len(olds) > 0 {
		_ = folder.Rename(olds[len(olds)-1], liveName)
	}
}

// removeLeftovers deletes what interrupted syncs left: staging folders,
// replaced sets, temporary state files. The caller holds the team's lock,
// so none of them is in use.
func removeLeftovers(folder *os.Root) {
	for _, prefix := range []string{stagePrefix, oldPrefix, tempPrefix} {
		for _, name := range leftovers(folder, prefix) {
			_ = folder.RemoveAll(name)
		}
	}
}

// leftovers lists the team folder's entries with a prefix, sorted.
func leftovers(folder *os.Root, prefix string) []string {
	entries, err := fs.ReadDir(folder.FS(), ".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// randomSuffix names a staging folder or temporary file so that no
// other name can be guessed in advance.
func randomSuffix() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}
