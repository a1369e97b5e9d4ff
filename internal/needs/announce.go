package needs

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// said are the reasons this test binary has announced.
var said sync.Map

// announce writes line once to where the person who ran go test sees it,
// whatever the package: the go command's stderr when it is this test
// binary's parent (goOutput), once per reason across the whole go test run
// (a marker file per reason in a folder of that run's), else nowhere (go
// test -v shows the skip itself).
func announce(line string) {
	if _, dup := said.LoadOrStore(line, true); dup {
		return
	}
	w, run := goOutput()
	if w == nil {
		return
	}
	defer w.Close()
	cleanMarkers(run)
	dir := filepath.Join(os.TempDir(), "agenthooks-test-skips", run)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	sum := sha256.Sum256([]byte(line))
	f, err := os.OpenFile(filepath.Join(dir, hex.EncodeToString(sum[:8])), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return // another package of this run said it
	}
	f.Close()
	fmt.Fprintf(w, "agenthooks tests: %s\n", line)
}

// cleanMarkers removes the marker folders of go test runs that have ended,
// so that they do not pile up.
func cleanMarkers(keep string) {
	root := filepath.Join(os.TempDir(), "agenthooks-test-skips")
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || e.Name() == keep || alive(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(root, e.Name()))
	}
}
