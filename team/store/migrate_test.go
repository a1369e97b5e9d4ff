package store

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentMigration opens a new database from several stores at
// once, as replicas starting together do: each migration runs once.
func TestConcurrentMigration(t *testing.T) {
	eachURL(t, func(t *testing.T, url string) {
		var wg sync.WaitGroup
		stores := make([]Store, 4)
		errs := make([]error, len(stores))
		for i := range stores {
			wg.Go(func() { stores[i], errs[i] = Open(context.Background(), url, Options{}) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("store %d: %v", i, err)
			}
			defer stores[i].Close()
		}
		var n, maxV int
		if err := stores[0].(*sqlStore).db.QueryRow("SELECT COUNT(*), MAX(version) FROM schema_migrations").Scan(&n, &maxV); err != nil {
			t.Fatal(err)
		}
		if n != len(migrations) || maxV != len(migrations) {
			t.Errorf("schema_migrations: %d rows up to version %d; want %d", n, maxV, len(migrations))
		}
		if _, err := stores[3].CreateTeam(context.Background(), "platform"); err != nil {
			t.Error(err)
		}
	})
}

func TestNewerSchemaRefused(t *testing.T) {
	eachURL(t, func(t *testing.T, url string) {
		s := openT(t, url, Options{})
		db := s.(*sqlStore).db
		if _, err := db.Exec("INSERT INTO schema_migrations (version, applied_at) VALUES (99, 0)"); err != nil {
			t.Fatal(err)
		}
		_, err := Open(context.Background(), url, Options{})
		if err == nil || !strings.Contains(err.Error(), "schema version 99 is newer") || !strings.Contains(err.Error(), "upgrade agenthooks") {
			t.Fatalf("opening a newer schema: %v", err)
		}
	})
}

func TestOpenURL(t *testing.T) {
	ctx := context.Background()
	for _, url := range []string{"mysql://x", "team.db", ""} {
		_, err := Open(ctx, url, Options{})
		if err == nil || !strings.Contains(err.Error(), "use sqlite:PATH") {
			t.Errorf("Open(%q): %v", url, err)
		}
	}
	path := filepath.Join(t.TempDir(), "team.db")
	s, err := Open(ctx, "sqlite:"+path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("database mode %v, want 0600: it holds token hashes and scripts", fi.Mode().Perm())
	}
	_, err = Open(ctx, "postgres://nobody@127.0.0.1:1/x?sslmode=disable&connect_timeout=2", Options{})
	if err == nil || !strings.Contains(err.Error(), "postgres database postgres://nobody@127.0.0.1:1/x") {
		t.Errorf("unreachable server: %v", err)
	}
	_, err = Open(ctx, "postgres://u:hunter2@127.0.0.1:1/x?sslmode=disable&connect_timeout=2", Options{})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("the password shows in the error: %v", err)
	}
}
