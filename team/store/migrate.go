package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// migrations are the schema's versions, shared by every dialect:
// migrations[i] takes the schema from version i to i+1. They are
// append-only: a released migration is never edited, a change is a new
// one. {{id}} is the dialect's auto-numbered primary key; everything else
// is SQL both SQLite and PostgreSQL read the same way (BIGINT, TEXT,
// BOOLEAN, DOUBLE PRECISION). Times are Unix milliseconds.
var migrations = []string{
	// 1: teams, hooks, history, tokens.
	`CREATE TABLE teams (
		id         {{id}},
		name       TEXT NOT NULL UNIQUE,
		revision   BIGINT NOT NULL DEFAULT 0,
		created_at BIGINT NOT NULL
	);

	CREATE TABLE hooks (
		id                {{id}},
		team_id           BIGINT NOT NULL REFERENCES teams(id),
		hook_step         TEXT NOT NULL,
		script_name       TEXT NOT NULL,
		operating_systems TEXT NOT NULL, -- comma-separated; '' is every system
		is_active         BOOLEAN NOT NULL,
		script_content    TEXT NOT NULL,
		matcher           TEXT NOT NULL,
		timeout_seconds   DOUBLE PRECISION NOT NULL,
		fail_closed       BOOLEAN NOT NULL,
		updated_at        BIGINT NOT NULL,
		updated_by        TEXT NOT NULL
	);
	-- A team's scripts share one folder on each machine.
	CREATE UNIQUE INDEX hooks_team_script ON hooks(team_id, script_name);

	-- No foreign key to hooks: a deleted hook's history stays.
	CREATE TABLE history (
		id          {{id}},
		team_id     BIGINT NOT NULL REFERENCES teams(id),
		hook_id     BIGINT NOT NULL,
		action      TEXT NOT NULL,
		actor       TEXT NOT NULL,
		at          BIGINT NOT NULL,
		revision    BIGINT NOT NULL,
		script_name TEXT NOT NULL
	);
	CREATE INDEX history_team ON history(team_id, id);
	CREATE INDEX history_hook ON history(hook_id, id);

	-- Names are unique, revoked tokens included, so that the name the
	-- history shows always means one token.
	CREATE TABLE tokens (
		id         {{id}},
		name       TEXT NOT NULL UNIQUE,
		role       TEXT NOT NULL,
		team_id    BIGINT REFERENCES teams(id), -- NULL for admin tokens
		hash       TEXT NOT NULL UNIQUE,        -- hex SHA-256 of the secret
		created_at BIGINT NOT NULL,
		revoked_at BIGINT                       -- NULL while the token is live
	);
	CREATE INDEX tokens_team ON tokens(team_id);`,

	// 2: the fleet (machines as their syncs report them) and the team's
	// audit of its members' decisions, opt-in per team.
	`ALTER TABLE teams ADD COLUMN audit BOOLEAN NOT NULL DEFAULT FALSE;
	ALTER TABLE teams ADD COLUMN audit_retention_days BIGINT NOT NULL DEFAULT 0;

	CREATE TABLE machines (
		team_id            BIGINT NOT NULL REFERENCES teams(id),
		machine_id         TEXT NOT NULL,
		hostname           TEXT NOT NULL,
		os                 TEXT NOT NULL,
		version            TEXT NOT NULL,
		installed_revision BIGINT NOT NULL,
		agents             TEXT NOT NULL, -- comma-separated
		token_name         TEXT NOT NULL,
		last_sync          BIGINT NOT NULL,
		PRIMARY KEY (team_id, machine_id)
	);

	CREATE TABLE decisions (
		id              {{id}},
		team_id         BIGINT NOT NULL REFERENCES teams(id),
		machine_id      TEXT NOT NULL,
		hostname        TEXT NOT NULL,
		record_id       TEXT NOT NULL,
		at              BIGINT NOT NULL,
		step            TEXT NOT NULL,
		outcome         TEXT NOT NULL,
		decision        TEXT NOT NULL,
		script_name     TEXT NOT NULL,
		agent           TEXT NOT NULL,
		conversation_id TEXT NOT NULL,
		what            TEXT NOT NULL,
		message         TEXT NOT NULL,
		received_at     BIGINT NOT NULL
	);
	-- A machine's retried upload stores each decision once.
	CREATE UNIQUE INDEX decisions_once ON decisions(team_id, machine_id, record_id);
	CREATE INDEX decisions_team_at ON decisions(team_id, at);`,

	// 3: the team's sandbox.json, distributed with its hooks.
	`ALTER TABLE teams ADD COLUMN sandbox_json TEXT NOT NULL DEFAULT '';`,

	// 4: an index for each filter of the audit view, in its order (the
	// newest first), so that a filter reads the rows it shows and no
	// others however many the team keeps; the order's own index gains
	// the id that breaks ties. On PostgreSQL, the machines' pages keep
	// room for each row's next version, which every flush writes.
	`CREATE INDEX decisions_team_machine ON decisions(team_id, machine_id, at, id);
	CREATE INDEX decisions_team_agent ON decisions(team_id, agent, at, id);
	CREATE INDEX decisions_team_step ON decisions(team_id, step, at, id);
	CREATE INDEX decisions_team_script ON decisions(team_id, script_name, at, id);
	CREATE INDEX decisions_team_at_id ON decisions(team_id, at, id);
	DROP INDEX decisions_team_at;
	{{machines_fillfactor}}`,

	// 5: an audit a member cannot bury. Lists order by the time the
	// server received each decision (received_at), which no member sets,
	// then by the member's time; the filters' indexes of 4 follow (the
	// pruner keeps (team_id, at, id): retention is by the member's time,
	// which the server bounds when it receives it). Each decision
	// names the token that sent it; a machine id belongs to the token
	// that first reported it; each token's decisions are counted per day
	// (UTC) for its daily volume. Each history row keeps the hook's script
	// and options as the change left them, so a revision can be shown as
	// a diff.
	`ALTER TABLE decisions ADD COLUMN token_id BIGINT NOT NULL DEFAULT 0;
	CREATE INDEX decisions_rx_machine ON decisions(team_id, machine_id, received_at, at, id);
	CREATE INDEX decisions_rx_agent ON decisions(team_id, agent, received_at, at, id);
	CREATE INDEX decisions_rx_step ON decisions(team_id, step, received_at, at, id);
	CREATE INDEX decisions_rx_script ON decisions(team_id, script_name, received_at, at, id);
	CREATE INDEX decisions_rx_token ON decisions(team_id, token_id, received_at, at, id);
	CREATE INDEX decisions_rx ON decisions(team_id, received_at, at, id);
	DROP INDEX decisions_team_machine;
	DROP INDEX decisions_team_agent;
	DROP INDEX decisions_team_step;
	DROP INDEX decisions_team_script;
	CREATE TABLE machine_tokens (
		team_id    BIGINT NOT NULL REFERENCES teams(id),
		machine_id TEXT NOT NULL,
		token_id   BIGINT NOT NULL,
		PRIMARY KEY (team_id, machine_id)
	);
	ALTER TABLE history ADD COLUMN script_content TEXT NOT NULL DEFAULT '';
	ALTER TABLE history ADD COLUMN options TEXT NOT NULL DEFAULT '';
	CREATE TABLE token_uploads (
		token_id  BIGINT NOT NULL,
		day       BIGINT NOT NULL,
		decisions BIGINT NOT NULL,
		PRIMARY KEY (token_id, day)
	);`,

	// 6: the fleet view's order (stale first, the longest silent first;
	// then the rest, the latest sync first) walks an index of the last
	// sync, which carries the installed revision that decides staleness
	// (on SQLite: 7 drops it on PostgreSQL);
	// a listing longer than one page is kept as the ordered machine ids
	// of its first page's time, in blocks, so that its later pages read
	// positions in it (machinelist.go). The audit's until, on the
	// member's time, reads each day of that time in the order of receipt
	// (decisions_rx_day; Decisions).
	`CREATE INDEX machines_team_sync ON machines(team_id, last_sync, machine_id, installed_revision);
	CREATE TABLE machine_listings (
		id         {{id}},
		team_id    BIGINT NOT NULL REFERENCES teams(id),
		query      TEXT NOT NULL,
		machines   BIGINT NOT NULL,
		created_at BIGINT NOT NULL
	);
	CREATE INDEX machine_listings_team ON machine_listings(team_id, query, created_at);
	CREATE INDEX machine_listings_created ON machine_listings(created_at);
	CREATE INDEX decisions_rx_day ON decisions(team_id, (at / 86400000), received_at, at, id);
	CREATE TABLE machine_listing_blocks (
		listing_id  BIGINT NOT NULL,
		block       BIGINT NOT NULL,
		machine_ids TEXT NOT NULL, -- newline-separated, in the listing's order
		PRIMARY KEY (listing_id, block)
	);`,

	// 7: no index of the last sync on PostgreSQL, where it cost every
	// fleet flush half as much again (see postgresDialect).
	`{{drop_machines_sync_index}}`,
}

// migrate brings the schema to len(migrations) in one transaction that
// first takes the dialect's migration lock, so that servers starting at
// once against a new database apply each migration exactly once, and a
// failed migration leaves the schema as it was.
func (s *sqlStore) migrate(ctx context.Context) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if s.d.migrationLock != "" {
			if _, err := tx.ExecContext(ctx, s.d.migrationLock); err != nil {
				return fmt.Errorf("lock schema for migration: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    BIGINT PRIMARY KEY,
			applied_at BIGINT NOT NULL
		)`); err != nil {
			return fmt.Errorf("create schema_migrations: %w", err)
		}
		var v int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
			return fmt.Errorf("read schema version: %w", err)
		}
		if v > len(migrations) {
			return fmt.Errorf("schema version %d is newer than this agenthooks knows (%d): upgrade agenthooks, or use another database", v, len(migrations))
		}
		for ; v < len(migrations); v++ {
			for _, stmt := range s.d.statements(migrations[v]) {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("migrate schema to version %d: %w", v+1, err)
				}
			}
			if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`), v+1, nowMs()); err != nil {
				return fmt.Errorf("migrate schema to version %d: %w", v+1, err)
			}
		}
		return nil
	})
}

// statements fills in the dialect's words and splits a migration into
// statements, since not every driver runs several in one Exec. A
// migration holds no string literal with "--" or ";" in it.
func (d dialect) statements(migration string) []string {
	migration = stripComments(migration)
	for k, v := range d.words {
		migration = strings.ReplaceAll(migration, "{{"+k+"}}", v)
	}
	var out []string
	for stmt := range strings.SplitSeq(migration, ";") {
		if stmt = strings.TrimSpace(stmt); stmt != "" {
			out = append(out, stmt)
		}
	}
	return out
}

// stripComments drops -- comments.
func stripComments(s string) string {
	var b strings.Builder
	for line := range strings.SplitSeq(s, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}
