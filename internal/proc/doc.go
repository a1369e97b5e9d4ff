// Package proc runs one hook process and is the part of the engine that must
// never hang or leak.
//
// Run starts a command (through /bin/sh -c, PowerShell on Windows, or
// directly when the command has no shell syntax), feeds it a payload on
// stdin while reading its output, bounds its output and its running time,
// and tears down its whole process group when it misbehaves. Every
// goroutine Run starts is joined before it returns, so a caller can run
// thousands of hooks without accumulating anything.
//
// Choices the design leaves open, written down here:
//
//   - Direct exec falls back to the shell on any start failure (not found,
//     ENOEXEC, permission denied), so every failure message and exit status
//     is exactly sh's (127 "not found", 126 "Permission denied").
//   - A nil Spec.Env inherits the parent's environment, as os/exec does; a
//     non-nil empty one starts the hook with an empty environment.
//   - When the leader exits normally and its output reaches EOF within
//     Grace, the rest of its process group is left alone: a background job
//     that redirected its stdio is fire-and-forget, as it is in a terminal.
//     Every other ending (timeout, cancellation, output cap, a descendant
//     still holding the pipes) kills the whole group before Run returns.
//   - A descendant that moved itself to another process group (setsid,
//     setpgid) cannot be reached by a group kill on unix; Run still returns
//     on time because it closes its own ends of the pipes.
//   - On Windows every command goes through PowerShell (aliases, cmdlets and
//     PATHEXT make a "plain" word mean something else there), the tree is
//     held in a Job object, and the polite stop is a CTRL_BREAK_EVENT.
package proc
