//go:build !linux

package client

import "syscall"

// childAttr adds nothing where the kernel has no parent-death signal; the
// child is stopped by the signals this process forwards.
func childAttr() *syscall.SysProcAttr { return nil }
