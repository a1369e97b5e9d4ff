//go:build !linux

package needs

import "os"

// goOutput: only Linux lets a test binary reach its parent's stderr
// (/proc); elsewhere go test -v shows the skips.
func goOutput() (*os.File, string) { return nil, "" }

func alive(int) bool { return false }
