// Package needs is for tests that need a part of the machine a developer
// may not have (Chromium, PostgreSQL, Node.js, root), or that -short
// leaves out (the real agents, the browser): without it they skip with
// one line naming what to install, so `go test ./...` passes on a machine
// with only Go. CI sets StrictEnv, under which a missing part fails: CI
// never skips a real part.
//
// `go test ./...` shows nothing of a passing package but its "ok" line, so
// a skip would go unseen; each reason is also said once in the go
// command's own output (announce), so the summary names every part that
// was not tested, once.
package needs

import (
	"os"
	"testing"
)

// StrictEnv names the variable that, when set, turns every Missing into a
// failure.
const StrictEnv = "AGENTHOOKS_TEST_STRICT"

// Missing skips tb, or fails it under StrictEnv; what says what is
// missing and how to install it.
func Missing(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv(StrictEnv) != "" {
		tb.Fatalf("%s (%s is set: a missing part fails)", what, StrictEnv)
	}
	announce("skipped: " + what)
	tb.Skip(what)
}

// Short skips tb under go test -short: what says what is left out (the
// real agents from npm, the browser, a slow stress test), and is said once
// in the go command's output.
func Short(tb testing.TB, what string) {
	tb.Helper()
	if !testing.Short() {
		return
	}
	announce("skipped in -short mode: " + what)
	tb.Skip(what + " (not in -short mode)")
}
