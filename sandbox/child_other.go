//go:build !linux && !darwin

package sandbox

import (
	"errors"
	"os"
	"syscall"
)

// This system has no sandbox (Supported says so), so nothing here runs a
// command; these keep the package building.

var forwarded []os.Signal

func passOn(*os.Process, os.Signal) {}

func childAttr() *syscall.SysProcAttr { return nil }

func endLike(st *os.ProcessState) int { return st.ExitCode() }

const sandboxName = "none"

func enter(job, string, []string, []string) error {
	return errors.New("this system has no sandbox agenthooks can use")
}

// Supported says whether the kernel can enforce p here.
func Supported(Policy) error {
	return errors.New("agenthooks has no sandbox for this operating system yet")
}
