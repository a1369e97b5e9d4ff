package proc

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"time"
)

// foregroundGrace is how long a foreground command's runner waits, once
// the command has exited, for what it started to let go of the output,
// before killing its process group.
const foregroundGrace = time.Second

// Exit statuses of a foreground command that could not give its own,
// following sh and wrappers such as env and timeout.
const (
	// ExitNoStatus: no status could be had (the wait failed).
	ExitNoStatus = 125
	// ExitCannotRun: the program was found but could not run (sh's 126).
	ExitCannotRun = 126
	// ExitNotFound: the program does not exist (sh's 127).
	ExitNotFound = 127
)

// CaptureLimit is how much of a foreground command's output is kept: the
// first and last halves, with a line saying how much was left out between.
const CaptureLimit = 1 << 20

// Foreground is a command run in the foreground, as a shell runs it: with
// the caller's streams, in the caller's terminal, passed the signals the
// caller gets. It is what `agenthooks exec` (an agent's shell) runs once
// the hooks let it, in whichever process owns the command: the client or
// the full binary.
type Foreground struct {
	// Argv is run as it is, with no shell (ForegroundShell makes one).
	Argv []string
	// Dir is the working directory; "" for ours.
	Dir string
	// Stdin, Stdout and Stderr are the caller's streams. When Stdout is a
	// terminal the command gets one too (see Run).
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// PTY allows a pseudo-terminal of its own when Stdout is a terminal,
	// relayed and captured; otherwise the terminal is handed over and
	// nothing is captured.
	PTY bool
	// Signals are passed on to the command while it runs (see
	// ForwardedSignals); nil for none.
	Signals <-chan os.Signal
}

// foregroundIO are the caller's streams, which the command inherits.
type foregroundIO struct {
	in       io.Reader
	out, err io.Writer
}

// ForegroundResult is how a foreground command ended.
type ForegroundResult struct {
	// Code is the exit status to pass on: the command's exit code, 128+N
	// when it died of signal N, ExitCannotRun or ExitNotFound when it
	// could not start.
	Code int
	// Signal names the signal that killed it ("SIGTERM"), if one did.
	Signal string
	// Interrupted is set when a signal was passed on to the command, or
	// it died of SIGINT.
	Interrupted bool
	// StartErr says why it could not start, as sh would.
	StartErr string
	// Output is what it printed, stdout and stderr interleaved as they
	// came, up to CaptureLimit (nothing when the terminal was handed
	// over).
	Output   string
	Duration time.Duration
}

// Run runs the command to its end. How depends on Stdout:
//
//   - a terminal, and PTY allowed: a pseudo-terminal of its own, relayed
//     to ours and captured (runPTY; unix);
//   - a terminal otherwise: our streams handed over, nothing captured;
//   - anything else: stdout and stderr through pipes, copied to ours and
//     captured as they come.
func (f Foreground) Run() ForegroundResult {
	std := foregroundIO{in: f.Stdin, out: f.Stdout, err: f.Stderr}
	if IsTerminal(std.out) {
		if f.PTY {
			if res, ok := runPTY(f, std, f.Signals); ok {
				return res
			}
		}
		return runDirect(f, std, f.Signals)
	}
	return runPipes(f, std, f.Signals)
}

// runPipes tees stdout and stderr into one capture, in the order they
// come, as a terminal would interleave them. stdin is handed over.
//
// When stdin is not a terminal the command gets a process group of its
// own, so exec can signal and, at the end, kill everything it started;
// when stdin is a terminal the command must stay in the terminal's
// foreground group to read from it.
func runPipes(s Foreground, std foregroundIO, sigs <-chan os.Signal) ForegroundResult {
	capture := newHeadTail(CaptureLimit)
	cmd := foregroundCommand(s)
	cmd.Stdin = std.in
	if std.out == std.err {
		w := io.MultiWriter(capture, std.out)
		cmd.Stdout, cmd.Stderr = w, w
	} else {
		cmd.Stdout = io.MultiWriter(capture, std.out)
		cmd.Stderr = io.MultiWriter(capture, std.err)
	}
	own := !IsTerminal(std.in)
	cmd.SysProcAttr = foregroundProcAttr(own)
	res := waitForeground(cmd, own, sigs, nil)
	res.Output = capture.String()
	return res
}

// runDirect hands the command our streams as they are.
func runDirect(s Foreground, std foregroundIO, sigs <-chan os.Signal) ForegroundResult {
	cmd := foregroundCommand(s)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = std.in, std.out, std.err
	cmd.SysProcAttr = foregroundProcAttr(false)
	return waitForeground(cmd, false, sigs, nil)
}

func foregroundCommand(s Foreground) *exec.Cmd {
	cmd := exec.Command(s.Argv[0], s.Argv[1:]...)
	cmd.Dir = s.Dir
	cmd.WaitDelay = foregroundGrace
	return cmd
}

// waitForeground starts cmd, passes the signals exec receives on to it until it
// exits, and says how it ended. started, when not nil, runs right after a
// successful start. own says whether cmd leads a process group of its own,
// which waitForeground then kills when something in it outlives the command's
// output or the command was interrupted.
func waitForeground(cmd *exec.Cmd, own bool, sigs <-chan os.Signal, started func()) ForegroundResult {
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		res := startFailure(cmd.Path, cmd.Args[0], err)
		res.Duration = time.Since(begin)
		return res
	}
	if started != nil {
		started()
	}
	done := make(chan struct{})
	forwarded := make(chan bool, 1)
	go func() {
		sent := false
		for {
			select {
			case s := <-sigs:
				sent = true
				forwardSignal(cmd.Process, s, own)
			case <-done:
				forwarded <- sent
				return
			}
		}
	}()
	waitErr := cmd.Wait()
	res := ForegroundResult{Duration: time.Since(begin)}
	close(done)
	res.Interrupted = <-forwarded
	if own && (res.Interrupted || errors.Is(waitErr, exec.ErrWaitDelay)) {
		killForegroundGroup(cmd.Process)
	}
	res.Code, res.Signal = foregroundStatus(cmd.ProcessState)
	// ^C typed into the command's own terminal reaches it without us.
	res.Interrupted = res.Interrupted || res.Signal == "SIGINT"
	return res
}

// startFailure reports a command that could not start the way sh
// reports it: 127 when the program does not exist, 126 otherwise.
func startFailure(path, name string, err error) ForegroundResult {
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return ForegroundResult{Code: ExitNotFound, StartErr: name + ": command not found"}
	case errors.Is(err, fs.ErrPermission):
		return ForegroundResult{Code: ExitCannotRun, StartErr: name + ": permission denied"}
	}
	if path == "" {
		path = name
	}
	return ForegroundResult{Code: ExitCannotRun, StartErr: fmt.Sprintf("%s: cannot run: %v", path, err)}
}
