package gitpush

import (
	"os"
	"testing"
)

// writeFile writes a test's file, failing the test when it cannot.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
