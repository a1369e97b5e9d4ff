package proc

import "time"

// Defaults applied by Run to the zero values of Spec.
const (
	DefaultGrace     = time.Second
	DefaultStdoutCap = 64 << 20 // 64 MiB: a beforeReadFile answer can carry a whole file.
	DefaultStderrCap = 1 << 20  // 1 MiB: stderr only feeds messages and the log.
)

// Spec describes one process to run.
type Spec struct {
	// Command is a shell command string as written in hooks.json.
	Command string
	// Argv, when not empty, is a program and its arguments, started
	// directly, never through a shell (Command is then ignored), with the
	// same process group, limits and teardown as a command. Argv[0] is
	// found as findProgram says (per OS); one that cannot be found or
	// started is a StartErr.
	Argv []string
	// Dir is the working directory; "" means the caller's.
	Dir string
	// Env is the full environment, built by the caller. nil inherits the
	// caller's environment (as os/exec); PATH lookups for direct exec use
	// this environment's PATH, never the caller's.
	Env []string
	// Stdin is written to the process's stdin, concurrently with reading
	// its output; the pipe is closed once it is written.
	Stdin []byte
	// Timeout bounds the run; 0 means no limit other than ctx.
	Timeout time.Duration
	// Grace is how long a terminated group gets before SIGKILL, and how long
	// Run waits for output EOF after the leader exits; 0 (or less) means
	// DefaultGrace.
	Grace time.Duration
	// StdoutCap and StderrCap bound what is kept of each stream; past a cap
	// the process group is killed. 0 (or less) means the defaults.
	StdoutCap, StderrCap int64
}

// Result is what happened to one process.
type Result struct {
	// Stdout and Stderr hold what the process wrote, at most the caps.
	Stdout, Stderr []byte
	// ExitCode is the exit status, or -1 when the process died of a signal
	// or never started.
	ExitCode int
	// Signal names the signal the leader died of ("killed", "terminated"),
	// "" when it exited.
	Signal string
	// TimedOut reports that Spec.Timeout fired.
	TimedOut bool
	// Canceled reports that ctx ended (canceled, or its own deadline passed)
	// before the process and its output did.
	Canceled bool
	// Overflow is "stdout" or "stderr" when that stream exceeded its cap.
	Overflow string
	// StartErr is set when the process could not be started at all (bad
	// working directory, no shell). A missing or unrunnable command is not a
	// StartErr: the shell reports it with exit 127 or 126.
	StartErr error
	// Direct reports that the command was exec'd without a shell.
	Direct bool
	// Duration is the wall time Run took.
	Duration time.Duration
}

// withDefaults fills the zero values of s.
func (s Spec) withDefaults() Spec {
	if s.Grace <= 0 {
		s.Grace = DefaultGrace
	}
	if s.StdoutCap <= 0 {
		s.StdoutCap = DefaultStdoutCap
	}
	if s.StderrCap <= 0 {
		s.StderrCap = DefaultStderrCap
	}
	return s
}
