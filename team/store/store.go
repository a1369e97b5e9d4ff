// Package store keeps a team server's state: teams, their hooks, the
// history of every change to those hooks, and access tokens. All of it
// lives in the database, so any number of server replicas can share one
// PostgreSQL database; a single server can use an embedded SQLite file
// instead. Both run the same schema, migrations and queries, written once
// with `?` placeholders and a few dialect words filled in per database.
//
// Every change to a hook is one transaction that also bumps the team's
// revision and appends a history row naming the token that made it, so a
// client holding revision N knows that nothing changed while the
// revision is still N.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Store is the storage a team server needs. Implementations are safe for
// concurrent use.
type Store interface {
	// CreateTeam creates a team with revision 0. A name already taken is
	// ErrConflict.
	CreateTeam(ctx context.Context, name string) (Team, error)
	// Team returns one team, or ErrNotFound.
	Team(ctx context.Context, id int64) (Team, error)
	// TeamByName returns one team, or ErrNotFound.
	TeamByName(ctx context.Context, name string) (Team, error)
	// ListTeams returns every team, oldest first.
	ListTeams(ctx context.Context) ([]Team, error)

	// Hooks returns a team and all its hooks (by id), read at one
	// revision. When knownRevision is not 0 and equals the team's
	// revision, it returns the team alone, without reading the hooks:
	// the cheap answer to a polling client that is up to date.
	Hooks(ctx context.Context, teamID, knownRevision int64) (Snapshot, error)
	// CreateHook adds h to the team; h.ID, h.TeamID and the Updated
	// fields are set by the store. It returns the stored hook and the
	// team's new revision.
	CreateHook(ctx context.Context, actor string, teamID int64, h Hook) (Hook, int64, error)
	// UpdateHook replaces the hook with id h.ID (its team stays).
	UpdateHook(ctx context.Context, actor string, h Hook) (Hook, int64, error)
	// SetHookActive turns a hook on or off. Setting the state it
	// already has is still a change: it is recorded and bumps the
	// revision, so the history shows every administrator's action.
	SetHookActive(ctx context.Context, actor string, id int64, active bool) (Hook, int64, error)
	// DeleteHook removes a hook and returns the team's new revision.
	DeleteHook(ctx context.Context, actor string, id int64) (int64, error)
	// ReplaceHooks makes hooks the team's whole set as one revision (see
	// sqlStore.ReplaceHooks); changed is false when it changed nothing.
	ReplaceHooks(ctx context.Context, actor string, teamID int64, hooks []Hook, expectRevision int64) (snap Snapshot, changed bool, err error)
	// RevisionChanges returns the changes that made one revision of a
	// team, each with the script and options before and after it.
	RevisionChanges(ctx context.Context, teamID, revision int64) ([]RevisionChange, error)
	// History returns a team's hook changes, newest first.
	History(ctx context.Context, f HistoryFilter) ([]Change, error)

	// CreateToken makes a token and returns it with its secret, which
	// is stored only as a hash and cannot be read back.
	CreateToken(ctx context.Context, name string, role Role, teamID int64) (Token, string, error)
	// Authenticate returns the live token whose secret is given, or
	// ErrNotFound.
	Authenticate(ctx context.Context, secret string) (Token, error)
	// AuthenticateNow is Authenticate read from the database, never from
	// the memo: an administrator's call is rare and may change anything,
	// so a token revoked through any replica is refused at once.
	AuthenticateNow(ctx context.Context, secret string) (Token, error)
	// ListTokens returns the live tokens, of one team when teamID is
	// not 0, oldest first.
	ListTokens(ctx context.Context, teamID int64) ([]Token, error)
	// RevokeToken makes a token unusable at once. Its row stays, so its
	// name keeps identifying the changes it made.
	RevokeToken(ctx context.Context, id int64) error

	// SetTeamSandbox replaces the team's sandbox.json ("" removes it),
	// checked as members check it; it is a change of the team's set: the
	// revision goes up and the history records it (hook id 0).
	SetTeamSandbox(ctx context.Context, actor string, teamID int64, sandboxJSON string) (Team, int64, error)
	// SetTeamAudit turns a team's audit on or off and sets how many
	// days its decisions are kept (0: the default).
	SetTeamAudit(ctx context.Context, teamID int64, on bool, retentionDays int) (Team, error)
	// RecordMachines stores what machines' syncs reported: each row is
	// replaced unless the stored one is newer. A machine id is bound to
	// the token that first reports it (as AddDecisions binds it); the
	// reports another token sends under it are not written, and are
	// returned.
	RecordMachines(ctx context.Context, reports []MachineReport) (refused []MachineReport, err error)
	// Machines returns all of a team's machines, the latest sync first:
	// for a small team or a test; the fleet view pages (ListMachines).
	Machines(ctx context.Context, teamID int64) ([]MachineReport, error)
	// ListMachines returns one page of a team's machines in the fleet
	// view's order (stale first, the longest silent first; then the
	// rest, the latest sync first): the first page (q.Listing 0) in the
	// order of now, and when there are more, a listing that fixes that
	// order for the pages after it (ErrListingGone once past
	// ListingTTL; a listing does not hold the machines first seen after
	// it began).
	ListMachines(ctx context.Context, q MachineQuery) (MachinePage, error)
	// DropListings deletes the machine listings begun before before,
	// and says how many.
	DropListings(ctx context.Context, before time.Time) (int, error)
	// CountMachines counts a team's machines: all, stale (installed
	// revision below revision, or last sync before staleBeforeMs),
	// behind, and by version and agent (the MaxNameCounts commonest).
	CountMachines(ctx context.Context, teamID, revision, staleBeforeMs int64) (FleetCounts, error)
	// AddDecisions stores a machine's decisions for a team whose audit
	// is on (ErrAuditOff otherwise), each (machine, id) once and none
	// already past the team's retention, as one statement. It returns
	// how many were new.
	AddDecisions(ctx context.Context, teamID int64, ds []Decision) (int, error)
	// Decisions returns a team's decisions within its retention, newest
	// first.
	Decisions(ctx context.Context, f DecisionFilter) ([]Decision, error)
	// PruneDecisions deletes at most limit decisions past their team's
	// retention, in short writes, and says how many it deleted and how
	// long its longest write held the database: the caller repeats it,
	// pausing between, until it deletes none, sizing limit so that no
	// other write waits long behind it.
	PruneDecisions(ctx context.Context, limit int) (Pruned, error)
	// ReclaimSpace gives at most pages of the file's free pages back to
	// the file system, in one short write, and reports whether more are
	// free and how long the write held the database: SQLite in incremental auto-vacuum mode; a no-op elsewhere
	// (PostgreSQL's autovacuum does it).
	ReclaimSpace(ctx context.Context, pages int) (more bool, held time.Duration, err error)

	// Ping checks that the database answers.
	Ping(ctx context.Context) error
	// Close releases the database.
	Close() error
}

// WriteTimer is a store that says how long its longest write
// transaction since the last call held the database, and starts over:
// both of this package's do (the load generator reports it).
type WriteTimer interface {
	LongestWrite() time.Duration
}

// Team is a group of machines that share a set of hooks.
type Team struct {
	ID   int64
	Name string
	// Revision goes up by one with every change to the team's hooks.
	Revision    int64
	CreatedAtMs int64
	// Audit is set when members upload their decisions.
	Audit bool
	// AuditRetentionDays is how long decisions are kept; 0 means
	// DefaultAuditRetentionDays.
	AuditRetentionDays int
	// SandboxJSON is the team's sandbox.json; "" for none.
	SandboxJSON string
}

// Hook is one hook a team distributes.
type Hook struct {
	ID               int64
	TeamID           int64
	Step             string
	ScriptName       string
	OperatingSystems []string // empty means every system
	Active           bool
	ScriptContent    string
	Matcher          string
	TimeoutSeconds   float64 // 0 means the engine's default
	FailClosed       bool
	UpdatedAtMs      int64
	UpdatedBy        string
}

// Snapshot is a team's hooks as of one revision.
type Snapshot struct {
	Team Team
	// Unchanged is set when the caller's known revision is current;
	// Hooks is then nil.
	Unchanged bool
	Hooks     []Hook
}

// Actions recorded in the history.
const (
	ActionCreate     = "create"
	ActionUpdate     = "update"
	ActionActivate   = "activate"
	ActionDeactivate = "deactivate"
	ActionDelete     = "delete"
	// ActionSandbox is a change of the team's sandbox.json.
	ActionSandbox = "sandbox"
)

// Change is one entry of a team's history.
type Change struct {
	ID         int64
	TeamID     int64
	HookID     int64
	Action     string
	Actor      string
	AtMs       int64
	Revision   int64
	ScriptName string
}

// HistoryFilter selects history entries.
type HistoryFilter struct {
	TeamID int64
	HookID int64 // 0: every hook of the team
	Limit  int   // 0: DefaultHistoryLimit; capped at MaxHistoryLimit
}

// History page sizes.
const (
	DefaultHistoryLimit = 100
	MaxHistoryLimit     = 1000
)

// Role is what a token may do.
type Role string

const (
	// RoleMember reads its team's hooks.
	RoleMember Role = "member"
	// RoleAdmin administers every team, hook and token.
	RoleAdmin Role = "admin"
)

// ParseRole accepts "member" and "admin".
func ParseRole(s string) (Role, error) {
	switch r := Role(strings.TrimSpace(s)); r {
	case RoleMember, RoleAdmin:
		return r, nil
	}
	return "", &ValidationError{Field: "role", Problem: fmt.Sprintf("%q is not a role", s), Fix: `use "member" (reads one team's hooks) or "admin"`}
}

// Token is an access token; its secret is never stored.
type Token struct {
	ID          int64
	Name        string
	Role        Role
	TeamID      int64 // set for member tokens
	CreatedAtMs int64
}

// DefaultAuditRetentionDays is how long a team's decisions are kept
// unless it says otherwise; MaxAuditRetentionDays bounds what it may say.
const (
	DefaultAuditRetentionDays = 90
	MaxAuditRetentionDays     = 3660
)

// MachineReport is a member machine as its last sync described it.
type MachineReport struct {
	TeamID            int64
	MachineID         string
	Hostname          string
	OS                string
	Version           string
	InstalledRevision int64
	Agents            []string
	TokenName         string
	LastSyncMs        int64
	// TokenID is the member token that sent the report, which owns the
	// machine id once it is the first to report it; 0 (the store's own
	// callers) binds nothing and is not checked.
	TokenID int64
}

// Pruned is what one call of PruneDecisions did.
type Pruned struct {
	Rows int
	// Held is the longest time one of its writes held the database,
	// from its first statement to its commit (not the wait before).
	Held time.Duration
}

// MachineQuery selects one page of a team's machines; empty filters
// match every machine.
type MachineQuery struct {
	TeamID int64
	// Revision is the team's revision: a machine below it is behind.
	Revision int64
	// StaleBeforeMs: a machine whose last sync is older is stale, as is
	// one behind.
	StaleBeforeMs int64
	StaleOnly     bool
	BehindOnly    bool
	// Prefix keeps machines whose host name (in any case) or id starts
	// with it.
	Prefix  string
	Version string
	// Listing and Offset continue the listing a first page began (the
	// page token): the page starts at position Offset of it. Listing 0
	// begins one. Its filters must be those it began with.
	Listing int64
	Offset  int
	// Limit is the page's size: 0 means DefaultMachinePage; capped at
	// MaxMachinePage.
	Limit int
}

// MachinePage is one page of machines.
type MachinePage struct {
	Machines []MachineReport
	// Listing and Next are where the next page starts: position Next
	// of listing Listing; Next is 0 on the last page.
	Listing int64
	Next    int
}

// ListingTTL is how long a machine listing's later pages can be read;
// the pruner drops it after.
const ListingTTL = 15 * time.Minute

// Fleet page sizes, and how many versions and agents the counts name.
const (
	DefaultMachinePage = 100
	MaxMachinePage     = 1000
	MaxNameCounts      = 50
)

// FleetCounts sums up a team's machines.
type FleetCounts struct {
	Total, Stale, Behind int64
	// Versions and Agents are the commonest first.
	Versions, Agents []NameCount
}

// NameCount is how many machines share a version or an agent.
type NameCount struct {
	Name     string
	Machines int64
}

// Decision is one decision of a team hook on a member machine.
type Decision struct {
	ID             int64
	TeamID         int64
	MachineID      string
	Hostname       string
	RecordID       string
	AtMs           int64
	Step           string
	Outcome        string
	Decision       string
	ScriptName     string
	Agent          string
	ConversationID string
	What           string
	Message        string
	// ReceivedAtMs is when the server received it (the store sets it);
	// AtMs is the member's own time.
	ReceivedAtMs int64
	// TokenID is the member token that sent it; the store binds the
	// machine id to the first token that sends under it.
	TokenID int64
}

// DecisionFilter selects decisions; empty fields match everything.
type DecisionFilter struct {
	TeamID                       int64
	ScriptName, MachineID, Agent string
	Step                         string
	TokenID                      int64
	SinceMs, UntilMs             int64
	Limit                        int // 0: DefaultHistoryLimit; capped at MaxHistoryLimit
}

// Errors a caller can act on. Match them with errors.Is; the returned
// errors wrap them with the object concerned.
var (
	ErrNotFound = errors.New("not found")
	ErrConflict = errors.New("already exists")
	// ErrAuditOff refuses decisions for a team that did not turn its
	// audit on.
	ErrAuditOff = errors.New("the team's audit is off")
	// ErrMachineTaken refuses decisions sent under a machine id that
	// another token reported first.
	ErrMachineTaken = errors.New("the machine id belongs to another token")
	// ErrQuota refuses decisions past a token's daily volume.
	ErrQuota = errors.New("the token's daily volume of decisions is used up")
	// ErrListingGone refuses a page of a machine listing past its
	// ListingTTL.
	ErrListingGone = errors.New("the listing has expired")
)

// ValidationError is input the store refuses: which field, what is
// wrong with it, and how to fix it.
type ValidationError struct {
	Field   string
	Problem string
	Fix     string
}

func (e *ValidationError) Error() string {
	if e.Fix == "" {
		return e.Field + ": " + e.Problem
	}
	return e.Field + ": " + e.Problem + " (fix: " + e.Fix + ")"
}
