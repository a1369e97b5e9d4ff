package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSQLiteWALStaysBounded: writes that never pause (uploads back to
// back) still let the WAL start over, though checkpoints run apart from
// the writers: the WAL file stays a fraction of the database (without
// the checkpoint that makes writes wait, it outgrew it).
func TestSQLiteWALStaysBounded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "team.db")
	s := openT(t, "sqlite:"+path, Options{DailyDecisionsPerToken: 1 << 40})
	ctx := context.Background()
	team := mustAuditTeam(t, s, "platform", 30)
	message := strings.Repeat("m", 2000)
	largest := int64(0)
	const batches, rows = 120, 500 // about 150 MB written with the indexes
	for b := range batches {
		ds := make([]Decision, rows)
		for i := range ds {
			ds[i] = Decision{MachineID: fmt.Sprint("m", i%50), Hostname: "h", RecordID: fmt.Sprint(b, "-", i), AtMs: nowMs(), Step: "stop",
				Outcome: "deny", Decision: "deny", ScriptName: "guard.sh", Agent: "claude", Message: message}
		}
		if _, err := s.AddDecisions(ctx, team.ID, ds); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path + "-wal"); err == nil {
			largest = max(largest, fi.Size())
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("database %d MB, the WAL at most %d MB", fi.Size()>>20, largest>>20)
	if largest > fi.Size()/2 {
		t.Errorf("the WAL grew to %d MB for a database of %d MB: it never started over", largest>>20, fi.Size()>>20)
	}
}
