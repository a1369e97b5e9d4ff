package sandbox

import "syscall"

// childAttr: macOS has no parent-death signal; the child's proxy
// connections end with the supervisor.
func childAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }

// sandboxName is CURSOR_SANDBOX's value inside the sandbox, as Cursor
// sets it on macOS.
const sandboxName = "seatbelt"
