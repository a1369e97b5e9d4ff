//go:build !linux

package pgtest

import "os/exec"

// dieWithParent: only Linux can tie a child's life to its parent's; on
// other systems a test binary that dies abruptly leaves the server to be
// stopped by hand (its directory is in the temporary folder).
func dieWithParent(*exec.Cmd) {}
