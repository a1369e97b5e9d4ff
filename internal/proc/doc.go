// Package proc runs one hook process and is the part of the engine that must
// never hang or leak.
//
// Run starts a command (through /bin/sh -c, PowerShell on Windows, or
// directly when the command has no shell syntax) or an argv (always
// directly, for a caller that has words rather than a line), feeds it a payload on
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
//     setpgid, a double fork) is out of reach of a group kill. On Linux,
//     whenever Run kills the group while something still holds the hook's
//     output, it reads /proc for every process holding the write end of the
//     hook's stdout or stderr pipe and SIGKILLs it, with the process group
//     it leads if it made one. Only the hook's tree can hold those write
//     ends (the pipes are close-on-exec and handed to the hook alone), so
//     nothing outside the hook is touched, and a job that let go of the
//     output (redirected to a file or /dev/null) survives as before. The
//     scan repeats until it finds no holder it has not already killed, at
//     most a few rounds, and never runs on a normal ending. Run does not
//     make its host a child subreaper instead: that is a process-wide
//     setting a library must not change.
//   - On Windows the Job object's kill reaches such a descendant anyway.
//     On macOS and the other unix systems (no /proc; libproc needs cgo) it
//     survives: Run still returns on time because it closes its own ends
//     of the pipes, and the survivor's next write to them fails.
//   - On Windows every command goes through PowerShell (aliases, cmdlets and
//     PATHEXT make a "plain" word mean something else there), the tree is
//     held in a Job object, and the polite stop is a CTRL_BREAK_EVENT. An
//     argv's program starts faster than PowerShell: a descendant it starts
//     before the Job is assigned stays outside it, as on macOS, and Run
//     still returns on time because it closes its ends of the pipes.
package proc
