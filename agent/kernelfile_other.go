//go:build !linux

package agent

import "os"

// kernelFile: only Linux's kernel files are known here.
func kernelFile(*os.File) bool { return false }
