package sqlitedb

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func openT(t *testing.T, path string, o Options) *sql.DB {
	t.Helper()
	db, _, err := Open(t.Context(), path, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func pragma(t *testing.T, db *sql.DB, name string) string {
	t.Helper()
	var v string
	if err := db.QueryRowContext(t.Context(), "PRAGMA "+name).Scan(&v); err != nil {
		t.Fatalf("PRAGMA %s: %v", name, err)
	}
	return v
}

func TestOpenSetsUpTheDatabase(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db, abs, err := Open(t.Context(), "x.db", Options{BusyTimeout: 1500 * time.Millisecond, JournalSizeLimit: 4 << 20, ForeignKeys: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if want := filepath.Join(dir, "x.db"); abs != want {
		t.Errorf("path %s, want %s", abs, want)
	}
	for name, want := range map[string]string{
		"journal_mode": "wal", "busy_timeout": "1500", "synchronous": "1",
		"journal_size_limit": "4194304", "foreign_keys": "1",
	} {
		if got := pragma(t, db, name); got != want {
			t.Errorf("PRAGMA %s = %s, want %s", name, got, want)
		}
	}
	if runtime.GOOS != "windows" {
		info, err := os.Stat(abs)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("database file mode %v, want 0600", info.Mode().Perm())
		}
	}
}

func TestOpenDefaults(t *testing.T) {
	db := openT(t, filepath.Join(t.TempDir(), "x.db"), Options{})
	for name, want := range map[string]string{"busy_timeout": "1", "foreign_keys": "0", "journal_size_limit": "-1"} {
		if got := pragma(t, db, name); got != want {
			t.Errorf("PRAGMA %s = %s, want %s", name, got, want)
		}
	}
}

func TestOpenRejectsQuestionMark(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("'?' is not a valid file name character on Windows")
	}
	path := filepath.Join(t.TempDir(), "what?.db")
	if db, _, err := Open(t.Context(), path, Options{}); err == nil {
		db.Close()
		t.Fatal("Open succeeded")
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("the file was created")
	}
}

func TestOpenFailsInAMissingFolder(t *testing.T) {
	if db, _, err := Open(t.Context(), filepath.Join(t.TempDir(), "no", "x.db"), Options{}); err == nil {
		db.Close()
		t.Fatal("Open succeeded")
	}
}

// A transaction takes the write lock when it begins (IMMEDIATE): a second
// database handle on the file, as another process has, cannot begin one
// until the first ends, and its failure is a busy error. A read-only
// transaction takes no lock and still reads.
func TestTransactionsBeginImmediate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	a := openT(t, path, Options{BusyTimeout: 10 * time.Second})
	b := openT(t, path, Options{BusyTimeout: 20 * time.Millisecond})
	if _, err := a.ExecContext(t.Context(), "CREATE TABLE t (v INTEGER)"); err != nil {
		t.Fatal(err)
	}
	tx, err := a.BeginTx(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = b.BeginTx(t.Context(), nil)
	if !IsBusy(err) {
		t.Fatalf("a second writer began while the first held the lock: %v", err)
	}
	ro, err := b.BeginTx(t.Context(), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatalf("a reader waited for the writer: %v", err)
	}
	var n int
	if err := ro.QueryRowContext(t.Context(), "SELECT count(*) FROM t").Scan(&n); err != nil || n != 0 {
		t.Errorf("read %d, %v", n, err)
	}
	_ = ro.Rollback()
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	tx2, err := b.BeginTx(t.Context(), nil)
	if err != nil {
		t.Fatalf("after the first writer ended: %v", err)
	}
	_ = tx2.Rollback()
}

func TestSetBusyTimeout(t *testing.T) {
	db := openT(t, filepath.Join(t.TempDir(), "x.db"), Options{BusyTimeout: time.Second})
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := SetBusyTimeout(t.Context(), conn, 250*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var v int
	if err := conn.QueryRowContext(t.Context(), "PRAGMA busy_timeout").Scan(&v); err != nil || v != 250 {
		t.Errorf("busy_timeout %d, %v", v, err)
	}
	if err := SetBusyTimeout(context.Background(), conn, 0); err != nil {
		t.Fatal(err)
	}
	if err := conn.QueryRowContext(t.Context(), "PRAGMA busy_timeout").Scan(&v); err != nil || v != 1 {
		t.Errorf("busy_timeout %d after 0, want 1: %v", v, err)
	}
}

func TestIsUniqueViolation(t *testing.T) {
	db := openT(t, filepath.Join(t.TempDir(), "x.db"), Options{})
	ctx := t.Context()
	for _, q := range []string{"CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE)", "INSERT INTO t VALUES (1, 'a')"} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	_, errName := db.ExecContext(ctx, "INSERT INTO t VALUES (2, 'a')")
	_, errID := db.ExecContext(ctx, "INSERT INTO t VALUES (1, 'b')")
	_, errOther := db.ExecContext(ctx, "INSERT INTO nope VALUES (1)")
	if !IsUniqueViolation(errName) || !IsUniqueViolation(errID) {
		t.Errorf("unique: %v; primary key: %v", errName, errID)
	}
	if errOther == nil || IsUniqueViolation(errOther) || IsBusy(errOther) || IsUniqueViolation(nil) || IsBusy(nil) {
		t.Errorf("another error taken for a violation or busy: %v", errOther)
	}
}
