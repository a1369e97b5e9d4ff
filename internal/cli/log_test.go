package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/state"
)

// TestLogScripts runs the scripts under testdata/logscript, which seed the
// state database with the commands below rather than through real runs,
// so that they exercise `agenthooks log` alone.
func TestLogScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "logscript"),
		Setup: func(env *testscript.Env) error {
			if err := isolate(env); err != nil {
				return err
			}
			env.Setenv("COLUMNS", "100")
			env.Setenv("NO_COLOR", "")
			var names []string
			for _, kv := range env.Vars {
				if k, _, ok := strings.Cut(kv, "="); ok {
					names = append(names, k)
				}
			}
			env.Values[followerKey{}] = &follower{envNames: names}
			return nil
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"seedlog":   cmdSeedlog,
			"logjson":   cmdLogjson,
			"logfollow": cmdLogfollow,
		},
	})
}

// cmdSeedlog writes N records to the script's state database:
//
//	seedlog [-step S] [-source S] [-outcome O] [-failure F] [-conv C]
//	        [-prefix P] [-command-file F] [-ago D] N
//
// Their commands are P1..PN (default prefix "cmd"), or F's content; their
// times are D ago (default 0), a millisecond apart, oldest first.
func cmdSeedlog(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! seedlog")
	}
	fs := flag.NewFlagSet("seedlog", flag.ContinueOnError)
	step := fs.String("step", "beforeShellExecution", "")
	source := fs.String("source", "user", "")
	outcome := fs.String("outcome", "allow", "")
	failure := fs.String("failure", "", "")
	conv := fs.String("conv", "conv-1", "")
	prefix := fs.String("prefix", "cmd", "")
	commandFile := fs.String("command-file", "", "")
	ago := fs.Duration("ago", 0, "")
	ts.Check(fs.Parse(args))
	if fs.NArg() != 1 {
		ts.Fatalf("usage: seedlog [flags] N")
	}
	n, err := strconv.Atoi(fs.Arg(0))
	ts.Check(err)

	base := time.Now().Add(-*ago)
	recs := make([]audit.Record, n)
	for i := range recs {
		t := base.Add(time.Duration(i-n) * time.Millisecond)
		cmd := fmt.Sprintf("%s%d", *prefix, i+1)
		if *commandFile != "" {
			cmd = ts.ReadFile(*commandFile)
		}
		recs[i] = audit.Record{
			ID: audit.NewID(t), Time: t, Step: *step, ConversationID: *conv, Command: cmd, Type: "command",
			Source: *source, File: "/hooks.json", Payload: json.RawMessage(`{"command":"git status"}`),
			Response: json.RawMessage(`{"permission":"` + *outcome + `"}`), DurationMS: 12.5 + float64(i),
			Failure: *failure, Outcome: *outcome, Decision: *outcome,
		}
	}
	s, err := state.Open(context.Background(), state.Options{Dir: ts.Getenv("AGENTHOOKS_STATE_DIR")})
	ts.Check(err)
	defer s.Close()
	ts.Check(s.Write(context.Background(), recs))
}

// cmdLogjson checks the last command's stdout: N lines, each a record
// with its seq (and nothing else), seqs in the given order.
//
//	logjson N newest|oldest
func cmdLogjson(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || (args[1] != "newest" && args[1] != "oldest") {
		ts.Fatalf("usage: logjson N newest|oldest")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	out := ts.ReadFile("stdout")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if out == "" {
		lines = nil
	}
	if len(lines) != want {
		ts.Fatalf("%d lines of JSON, want %d", len(lines), want)
	}
	var prev int64
	for i, line := range lines {
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var e state.Entry
		if err := dec.Decode(&e); err != nil {
			ts.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		if e.Seq <= 0 || e.ID == "" || e.Time.IsZero() || e.Step == "" {
			ts.Fatalf("line %d lacks seq, id, time or step: %s", i+1, line)
		}
		if i > 0 && (args[1] == "newest") != (e.Seq < prev) {
			ts.Fatalf("line %d: seq %d after %d is not %s first", i+1, e.Seq, prev, args[1])
		}
		prev = e.Seq
	}
}

type followerKey struct{}

// follower is an `agenthooks log --follow` process run by logfollow.
type follower struct {
	envNames []string
	cmd      *exec.Cmd
	stderr   lockedBuffer
	lines    chan string
	out      []string
}

// lineWait bounds how long logfollow waits for output: a guard against a
// hang, not a speed requirement.
const lineWait = 30 * time.Second

// cmdLogfollow runs `agenthooks log --follow` in the background, as a
// real process stopped by a real interrupt:
//
//	logfollow start N [log flags]  start it; wait for its first N lines
//	logfollow stop N               wait for N lines in all, interrupt it,
//	                               check it exits 0; its output becomes stdout
func cmdLogfollow(ts *testscript.TestScript, neg bool, args []string) {
	f := ts.Value(followerKey{}).(*follower)
	if neg || len(args) < 2 {
		ts.Fatalf("usage: logfollow start N [flags] | logfollow stop N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	switch args[0] {
	case "start":
		if f.cmd != nil {
			ts.Fatalf("logfollow already started")
		}
		bin, err := exec.LookPath("agenthooks") // testscript.Main put it on PATH
		ts.Check(err)
		f.cmd = exec.Command(bin, append([]string{"log", "--follow"}, args[2:]...)...)
		f.cmd.Dir = ts.MkAbs(".")
		f.cmd.Env = os.Environ()
		for _, k := range f.envNames {
			f.cmd.Env = append(f.cmd.Env, k+"="+ts.Getenv(k))
		}
		f.cmd.Stderr = &f.stderr
		stdout, err := f.cmd.StdoutPipe()
		ts.Check(err)
		ts.Check(f.cmd.Start())
		f.lines = make(chan string)
		go func() {
			defer close(f.lines)
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				f.lines <- sc.Text()
			}
		}()
		cmd, lines := f.cmd, f.lines
		ts.Defer(func() {
			if cmd.ProcessState == nil { // the script failed before stop
				_ = cmd.Process.Kill()
				for range lines { // let the reader finish
				}
				_ = cmd.Wait()
			}
		})
		f.await(ts, n)
	case "stop":
		if f.cmd == nil {
			ts.Fatalf("logfollow not started")
		}
		f.await(ts, n)
		ts.Check(f.cmd.Process.Signal(os.Interrupt))
		for line := range f.lines {
			f.out = append(f.out, line)
		}
		if err := f.cmd.Wait(); err != nil {
			ts.Fatalf("agenthooks log --follow after an interrupt: %v\n%s", err, f.stderr.String())
		}
		fmt.Fprint(ts.Stdout(), strings.Join(f.out, "\n")+"\n")
		fmt.Fprint(ts.Stderr(), f.stderr.String())
		*f = follower{envNames: f.envNames} // ready for another start
	default:
		ts.Fatalf("usage: logfollow start N [flags] | logfollow stop N")
	}
}

// await reads output until n lines have come.
func (f *follower) await(ts *testscript.TestScript, n int) {
	timeout := time.After(lineWait)
	for len(f.out) < n {
		select {
		case line, ok := <-f.lines:
			if !ok {
				ts.Fatalf("log --follow ended after %d lines, want %d:\n%s\nstderr:\n%s", len(f.out), n, strings.Join(f.out, "\n"), f.stderr.String())
			}
			f.out = append(f.out, line)
		case <-timeout:
			ts.Fatalf("log --follow printed %d lines in %v, want %d:\n%s", len(f.out), lineWait, n, strings.Join(f.out, "\n"))
		}
	}
}

// lockedBuffer is a bytes.Buffer safe to read while the process writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
