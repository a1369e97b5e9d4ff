// Package needs is for tests that need a part of the machine a developer
// may not have (Chromium, PostgreSQL, Node.js, root): without it they skip
// with one line naming what to install, so `go test ./...` passes on a
// machine with only Go. CI sets StrictEnv, under which such a skip fails:
// CI never skips a real part.
package needs

import (
	"os"
	"testing"
)

// StrictEnv, when set, turns every Missing into a failure.
const StrictEnv = "AGENTHOOKS_TEST_STRICT"

// Missing skips tb, or fails it under StrictEnv; what says what is
// missing and how to install it.
func Missing(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv(StrictEnv) != "" {
		tb.Fatalf("%s (%s is set: a missing part fails)", what, StrictEnv)
	}
	tb.Skip(what)
}
