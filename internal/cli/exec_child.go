package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"time"
)

// execGrace is how long exec waits, once the command has exited, for what
// it started to let go of the output, before killing its process group.
const execGrace = time.Second

// execSpec is the program to run.
type execSpec struct {
	argv []string
	dir  string
}

// execStdio are exec's own streams, which the command inherits.
type execStdio struct {
	in       io.Reader
	out, err io.Writer
}

// execResult is how the command ended.
type execResult struct {
	// code is what exec exits with: the command's exit code, 128+N when
	// it died of signal N, 126/127 when it could not start.
	code int
	// signal names the signal that killed it ("SIGTERM"), if one did.
	signal string
	// interrupted is set when exec passed a signal on to the command.
	interrupted bool
	// startErr says why it could not start.
	startErr string
	output   string
	duration time.Duration
}

// failure is postToolUseFailure's error_message.
func (r execResult) failure() string {
	switch {
	case r.startErr != "":
		return r.startErr
	case r.signal != "":
		return fmt.Sprintf("Command was killed by %s", r.signal)
	}
	return fmt.Sprintf("Command exited with code %d", r.code)
}

// execRun runs the command with exec's streams. How depends on stdout:
//
//   - a terminal, and pty allowed: a pseudo-terminal of its own, relayed
//     to ours and captured (execRunPTY; unix);
//   - a terminal otherwise: our streams handed over, nothing captured;
//   - anything else: stdout and stderr through pipes, copied to ours and
//     captured as they come.
func execRun(s execSpec, std execStdio, pty bool, sigs <-chan os.Signal) execResult {
	if execIsTerminal(std.out) {
		if pty {
			if res, ok := execRunPTY(s, std, sigs); ok {
				return res
			}
		}
		return execRunDirect(s, std, sigs)
	}
	return execRunPipes(s, std, sigs)
}

// execRunPipes tees stdout and stderr into one capture, in the order they
// come, as a terminal would interleave them. stdin is handed over.
//
// When stdin is not a terminal the command gets a process group of its
// own, so exec can signal and, at the end, kill everything it started;
// when stdin is a terminal the command must stay in the terminal's
// foreground group to read from it.
func execRunPipes(s execSpec, std execStdio, sigs <-chan os.Signal) execResult {
	capture := newExecCapture(execCaptureLimit)
	cmd := execCommand(s)
	cmd.Stdin = std.in
	if std.out == std.err {
		w := io.MultiWriter(capture, std.out)
		cmd.Stdout, cmd.Stderr = w, w
	} else {
		cmd.Stdout = io.MultiWriter(capture, std.out)
		cmd.Stderr = io.MultiWriter(capture, std.err)
	}
	own := !execIsTerminal(std.in)
	cmd.SysProcAttr = execProcAttr(own)
	res := execWait(cmd, own, sigs, nil)
	res.output = capture.String()
	return res
}

// execRunDirect hands the command our streams as they are.
func execRunDirect(s execSpec, std execStdio, sigs <-chan os.Signal) execResult {
	cmd := execCommand(s)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = std.in, std.out, std.err
	cmd.SysProcAttr = execProcAttr(false)
	return execWait(cmd, false, sigs, nil)
}

func execCommand(s execSpec) *exec.Cmd {
	cmd := exec.Command(s.argv[0], s.argv[1:]...)
	cmd.Dir = s.dir
	cmd.WaitDelay = execGrace
	return cmd
}

// execWait starts cmd, passes the signals exec receives on to it until it
// exits, and says how it ended. started, when not nil, runs right after a
// successful start. own says whether cmd leads a process group of its own,
// which execWait then kills when something in it outlives the command's
// output or the command was interrupted.
func execWait(cmd *exec.Cmd, own bool, sigs <-chan os.Signal, started func()) execResult {
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		res := execStartFailure(cmd.Path, cmd.Args[0], err)
		res.duration = time.Since(begin)
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
				execSignal(cmd.Process, s, own)
			case <-done:
				forwarded <- sent
				return
			}
		}
	}()
	waitErr := cmd.Wait()
	res := execResult{duration: time.Since(begin)}
	close(done)
	res.interrupted = <-forwarded
	if own && (res.interrupted || errors.Is(waitErr, exec.ErrWaitDelay)) {
		execKillGroup(cmd.Process)
	}
	res.code, res.signal = execStatus(cmd.ProcessState)
	// ^C typed into the command's own terminal reaches it without us.
	res.interrupted = res.interrupted || res.signal == "SIGINT"
	return res
}

// execStartFailure reports a command that could not start the way sh
// reports it: 127 when the program does not exist, 126 otherwise.
func execStartFailure(path, name string, err error) execResult {
	switch {
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return execResult{code: ExitExecNotFound, startErr: name + ": command not found"}
	case errors.Is(err, fs.ErrPermission):
		return execResult{code: ExitExecDenied, startErr: name + ": permission denied"}
	}
	if path == "" {
		path = name
	}
	return execResult{code: ExitExecDenied, startErr: fmt.Sprintf("%s: cannot run: %v", path, err)}
}
