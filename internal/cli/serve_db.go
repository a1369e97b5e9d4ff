package cli

import (
	"context"
	"errors"
	"fmt"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/state"
	"github.com/agenthooks/agenthooks/team/store"
)

// openStore opens the database of --database, $AGENTHOOKS_TEAM_DATABASE
// or the default SQLite file, and returns it with its URL for messages
// (without a password).
func (o *serveOptions) openStore(ctx context.Context) (store.Store, string, error) {
	url := o.database
	if url == "" {
		url = os.Getenv(envTeamDatabase)
	}
	if url == "" {
		dir := state.DefaultDir(o.io.getenv)
		if dir == "" {
			return nil, "", errors.New("no home directory for the default database: give --database, or set AGENTHOOKS_STATE_DIR")
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, "", fmt.Errorf("create the state directory for the default database (or give --database): %w", err)
		}
		url = "sqlite:" + filepath.Join(dir, "team.db")
	}
	// A database that does not answer should not hang the command.
	octx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	st, err := store.Open(octx, url, store.Options{MaxScriptBytes: o.maxScriptBytes, DailyDecisionsPerToken: o.uploadDaily})
	if err != nil {
		return nil, "", err
	}
	return st, redactURL(url), nil
}

// redactURL hides a PostgreSQL URL's password.
func redactURL(url string) string {
	if strings.HasPrefix(url, "sqlite:") {
		return url
	}
	u, err := neturl.Parse(url)
	if err != nil {
		return "postgres://…"
	}
	return u.Redacted()
}
