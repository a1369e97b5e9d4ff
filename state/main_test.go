package state

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/session"
)

// roleEnv switches the test binary into one of the child roles below, so
// that tests can run real processes against one database.
const roleEnv = "STATE_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleEnv) {
	case "":
		os.Exit(m.Run())
	case "worker":
		os.Exit(report(worker()))
	case "killme":
		os.Exit(report(killme()))
	default:
		fmt.Fprintf(os.Stderr, "unknown %s %q\n", roleEnv, os.Getenv(roleEnv))
		os.Exit(2)
	}
}

func report(err error) int {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// worker is one process of TestConcurrentProcesses: STATE_TEST_N session
// increments and records, interleaved.
func worker() error {
	id := os.Getenv("STATE_TEST_ID")
	n, err := strconv.Atoi(os.Getenv("STATE_TEST_N"))
	if err != nil {
		return err
	}
	ctx := context.Background()
	s, err := Open(ctx, Options{Dir: os.Getenv("STATE_TEST_DIR")})
	if err != nil {
		return err
	}
	defer s.Close()
	return increments(ctx, s, id, n)
}

// increments adds 1 to the "stop" loop count of conversation "shared" and
// writes one record, n times.
func increments(ctx context.Context, s *Store, writer string, n int) error {
	for i := range n {
		if err := s.Update(ctx, "shared", func(sess *session.Session) {
			if sess.LoopCounts == nil {
				sess.LoopCounts = map[string]int{}
			}
			sess.LoopCounts["stop"]++
		}); err != nil {
			return err
		}
		rec := testRecord(fmt.Sprintf("%s-%d", writer, i))
		if err := s.Write(ctx, []audit.Record{rec}); err != nil {
			return err
		}
	}
	return nil
}

// killme writes batches of three records until it is killed, printing
// each batch's ids once Write has returned (committed).
func killme() error {
	ctx := context.Background()
	s, err := Open(ctx, Options{Dir: os.Getenv("STATE_TEST_DIR")})
	if err != nil {
		return err
	}
	defer s.Close()
	// Bounded, so that a child whose test died does not run on.
	deadline := time.Now().Add(time.Minute)
	for b := 0; time.Now().Before(deadline); b++ {
		batch := []audit.Record{
			testRecord(fmt.Sprintf("b%d-0", b)),
			testRecord(fmt.Sprintf("b%d-1", b)),
			testRecord(fmt.Sprintf("b%d-2", b)),
		}
		if err := s.Write(ctx, batch); err != nil {
			return err
		}
		// A failed print means the parent is gone: stop.
		if _, err := fmt.Printf("b%d-0 b%d-1 b%d-2\n", b, b, b); err != nil {
			return err
		}
	}
	return nil
}

// testRecord is a record with every field set, its Command being cmd.
func testRecord(cmd string) audit.Record {
	now := time.Now()
	return audit.Record{
		ID:             audit.NewID(now),
		Time:           now,
		Step:           "beforeShellExecution",
		ConversationID: "conv-1",
		Command:        cmd,
		Type:           "command",
		Source:         "user",
		File:           "/home/u/.cursor/hooks.json",
		Index:          2,
		Payload:        json.RawMessage(`{"command":"git push","cwd":"/src"}`),
		PayloadChecked: true,
		Response:       json.RawMessage(`{"permission":"deny"}`),
		DurationMS:     12.5,
		ExitCode:       3,
		Stderr:         "no pushing",
		Failure:        "exit_status",
		Outcome:        "deny",
		Decision:       "deny",
		Agent:          "claude",
	}
}

// openTest opens a store in a new temporary directory, closed at the end
// of the test.
func openTest(t testing.TB, o Options) *Store {
	t.Helper()
	if o.Dir == "" {
		o.Dir = t.TempDir()
	}
	s, err := Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// count is the number of stored records.
func count(t testing.TB, s *Store) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM records`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
