package state

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/session"
)

func TestSessionsRoundTrip(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{Dir: dir})

	if got, err := s.Get(ctx, "c1"); err != nil || !reflect.DeepEqual(got, session.Session{}) {
		t.Fatalf("Get of an unknown session = %+v, %v; want the zero Session", got, err)
	}
	want := session.Session{
		Env:               map[string]string{"TOKEN": "x", "MODE": "strict"},
		AdditionalContext: "be careful",
		LoopCounts:        map[string]int{"stop": 2, "subagentStop:explore": 1},
	}
	if err := s.Update(ctx, "c1", func(sess *session.Session) { *sess = want }); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, "c2", func(sess *session.Session) { sess.AdditionalContext = "other" }); err != nil {
		t.Fatal(err)
	}
	// Another Store on the same file (another process, in effect) sees it.
	other := openTest(t, Options{Dir: dir})
	got, err := other.Get(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Get = %+v, want %+v", got, want)
	}
	// Update sees the stored session.
	if err := other.Update(ctx, "c1", func(sess *session.Session) { sess.LoopCounts["stop"]++ }); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Get(ctx, "c1"); got.LoopCounts["stop"] != 3 || got.Env["TOKEN"] != "x" {
		t.Errorf("after Update: %+v", got)
	}

	if err := s.Delete(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if got, _ := other.Get(ctx, "c1"); !reflect.DeepEqual(got, session.Session{}) {
		t.Errorf("Get after Delete = %+v, want the zero Session", got)
	}
	if got, _ := other.Get(ctx, "c2"); got.AdditionalContext != "other" {
		t.Errorf("Delete of c1 touched c2: %+v", got)
	}
	if err := s.Delete(ctx, "never-there"); err != nil {
		t.Errorf("Delete of an unknown session: %v", err)
	}
}

func TestRecordRoundTripEveryField(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{})
	want := testRecord("./hooks/guard.sh --strict")
	// Every field differs from its zero value, so a field the store drops
	// shows up as a difference.
	v := reflect.ValueOf(want)
	for i := range v.NumField() {
		if v.Field(i).IsZero() {
			t.Fatalf("testRecord leaves %s zero", v.Type().Field(i).Name)
		}
	}
	if err := s.Write(ctx, []audit.Record{want}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Records(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("%d records, want 1", len(got))
	}
	if got[0].Seq != 1 {
		t.Errorf("Seq = %d, want 1", got[0].Seq)
	}
	if !got[0].Time.Equal(want.Time) {
		t.Errorf("Time = %v, want %v", got[0].Time, want.Time)
	}
	got[0].Time, want.Time = time.Time{}, time.Time{}
	// PayloadChecked tells the store what it need not check; it is not
	// stored.
	want.PayloadChecked = false
	if !reflect.DeepEqual(got[0].Record, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got[0].Record, want)
	}
	// An Entry encodes as the record's JSON plus seq.
	line, err := json.Marshal(got[0])
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatal(err)
	}
	if m["seq"] != 1.0 || m["command"] != want.Command || m["exit_code"] != 3.0 {
		t.Errorf("Entry JSON = %s", line)
	}
}

func TestWriteFillsTimeAndID(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{})
	before := time.Now()
	if err := s.Write(ctx, []audit.Record{{Step: "stop"}}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Records(ctx, Query{})
	if err != nil || len(got) != 1 {
		t.Fatalf("Records = %v, %v", got, err)
	}
	if got[0].ID == "" || got[0].Time.Before(before.Truncate(time.Millisecond)) || got[0].Payload != nil {
		t.Errorf("record = %+v: want an id, the write time, no payload", got[0])
	}
}

func TestWriteKeepsInvalidJSONAsString(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, Options{})
	rec := testRecord("x")
	rec.Response = json.RawMessage(`{"permission": deny`) // a hook's garbled answer
	if err := s.Write(ctx, []audit.Record{rec}); err != nil {
		t.Fatal(err)
	}
	got, err := s.Records(ctx, Query{})
	if err != nil {
		t.Fatal(err)
	}
	var str string
	if err := json.Unmarshal(got[0].Response, &str); err != nil || str != `{"permission": deny` {
		t.Errorf("Response = %s (%v), want the garbled text as a JSON string", got[0].Response, err)
	}
	if _, err := json.Marshal(got[0]); err != nil {
		t.Errorf("stored record does not encode: %v", err)
	}
}

func TestOpenCreatesPrivateDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	s := openTest(t, Options{Dir: dir})
	if s.Path() != filepath.Join(dir, FileName) {
		t.Errorf("Path = %s", s.Path())
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700 {
		t.Errorf("state dir mode %v, want 0700", fi.Mode().Perm())
	}
	if err := s.Write(context.Background(), []audit.Record{testRecord("x")}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{FileName, FileName + "-wal", FileName + "-shm"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s mode %v, want 0600", name, fi.Mode().Perm())
		}
	}
	var mode string
	if err := s.db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	var timeout int
	if err := s.db.QueryRow("PRAGMA busy_timeout").Scan(&timeout); err != nil || timeout != int(BusyTimeout.Milliseconds()) {
		t.Errorf("busy_timeout = %d, %v", timeout, err)
	}
}

func TestOpenRejectsBadOptions(t *testing.T) {
	for _, o := range []Options{
		{Retention: -time.Hour},
		{MaxRecords: -1},
		{TruncateBytes: -1},
		{Redact: "scramble"},
	} {
		o.Dir = t.TempDir()
		if s, err := Open(context.Background(), o); err == nil {
			s.Close()
			t.Errorf("Open(%+v) succeeded", o)
		}
	}
}

func TestOpenRejectsQuestionMarkDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("'?' is not a valid file name character on Windows")
	}
	_, err := Open(context.Background(), Options{Dir: filepath.Join(t.TempDir(), "what?")})
	if err == nil {
		t.Fatal("Open succeeded")
	}
}

// WriteRuns stores several runs in one write, each record with its own
// run's payload; when the database is held, each run is spooled, and the
// next write stores them all.
func TestWriteRuns(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, Options{Dir: dir, LogWait: 20 * time.Millisecond})
	runs := func(tag string) [][]audit.Record {
		var out [][]audit.Record
		for i := range 3 {
			payload := json.RawMessage(fmt.Sprintf(`{"run":"%s%d"}`, tag, i))
			a, b := testRecord(fmt.Sprintf("%s%d-a", tag, i)), testRecord(fmt.Sprintf("%s%d-b", tag, i))
			a.Payload, b.Payload = payload, payload
			out = append(out, []audit.Record{a, b}, nil)
		}
		return out
	}
	check := func(want int) {
		t.Helper()
		got, err := s.Records(ctx, Query{})
		if err != nil || len(got) != want {
			t.Fatalf("Records: %d, %v; want %d", len(got), err, want)
		}
		for _, e := range got {
			run := strings.TrimSuffix(strings.TrimSuffix(e.Command, "-a"), "-b")
			if string(e.Payload) != `{"run":"`+run+`"}` {
				t.Errorf("record %s has payload %s", e.Command, e.Payload)
			}
		}
	}
	if err := s.WriteRuns(ctx, runs("x")); err != nil {
		t.Fatal(err)
	}
	check(6)
	release := holdWriteLock(t, dir)
	if err := s.WriteRuns(ctx, runs("y")); err != nil {
		t.Fatal(err)
	}
	spooled, err := os.ReadFile(filepath.Join(dir, SpoolName))
	if err != nil || strings.Count(string(spooled), "\n") != 3 {
		t.Fatalf("spool: %d runs, %v; want 3", strings.Count(string(spooled), "\n"), err)
	}
	release()
	if err := s.WriteRuns(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, []audit.Record{testRecord("z-a")}); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Records(ctx, Query{})
	if len(got) != 13 {
		t.Errorf("%d records after the spool was stored, want 13", len(got))
	}
}
