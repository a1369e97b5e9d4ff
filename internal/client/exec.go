package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agenthooks/agenthooks/internal/proc"
	"github.com/agenthooks/agenthooks/internal/wire"
)

// runExec is `agenthooks exec` and the $SHELL form (`agenthooks -c
// STRING`), the verb an agent's every terminal command goes through. The
// engine gates the command (exec --plan) and runs its after-hooks (exec
// --report); this process asks the user when a hook asks, and runs the
// command itself, so that the command is the agent's grandchild as with a
// plain shell: its terminal, its signals, its exit status. Without an
// engine both halves run in a process of the full binary, with the same
// answers.
func runExec(bin string, args []string) int {
	if len(args) > 0 && (args[0] == "--plan" || args[0] == "--report") {
		// The halves themselves, asked for by hand.
		return handOver(bin, append([]string{"exec"}, args...))
	}
	// Caught from here on: while the hooks decide, a signal stops
	// everything (the engine sees the connection close and stops the
	// hooks); while the command runs, it is the command's.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, proc.ForwardedSignals...)
	defer signal.Stop(sigs)

	p, code, ok := planExec(bin, args, sigs)
	if !ok {
		return code
	}
	os.Stderr.WriteString(p.Stderr)
	if p.Ask != nil {
		p.Run, p.Reason = confirmExec(p.Ask, sigs)
		if !p.Run {
			p.Messages = []string{p.Reason}
		}
	}
	if !p.Run {
		for _, m := range p.Messages {
			fmt.Fprintln(os.Stderr, m)
		}
		if p.Hooks && p.Call != nil {
			reportExec(bin, wire.ExecReport{Call: *p.Call, Refused: p.Reason}, sigs)
		}
		return proc.ExitCannotRun
	}
	res := proc.Foreground{
		Argv: p.Argv, Dir: p.Dir,
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		PTY: p.PTY, Signals: sigs,
	}.Run()
	if res.StartErr != "" {
		fmt.Fprintln(os.Stderr, "agenthooks:", res.StartErr)
	}
	if p.Hooks && p.Call != nil {
		reportExec(bin, wire.ExecReport{Call: *p.Call, Result: &wire.ExecResult{
			Code: res.Code, Signal: res.Signal, Interrupted: res.Interrupted,
			StartErr: res.StartErr, Output: res.Output, DurationMS: res.Duration.Milliseconds(),
		}}, sigs)
	}
	return res.Code
}

// planExec asks for the plan. ok is false when there is none to follow:
// a usage error, hooks that could not load, exec's help, or a signal
// before the hooks decided; code is then what to exit with, and what was
// said has been printed.
func planExec(bin string, args []string, sigs <-chan os.Signal) (p wire.ExecPlan, code int, ok bool) {
	var out, errOut bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- step(bin, append([]string{"exec", "--plan"}, args...), nil, nil, &out, &errOut)
	}()
	select {
	case code = <-done:
	case sig := <-sigs:
		fmt.Fprintf(os.Stderr, "agenthooks: interrupted (%v) before the command ran\n", sig)
		return p, signalCode(sig), false
	}
	if code == 0 && json.Unmarshal(out.Bytes(), &p) == nil && (p.Run || p.Ask != nil || p.Call != nil) {
		return p, 0, true
	}
	// Not a plan: say what was said, and never run anything.
	os.Stdout.Write(out.Bytes())
	os.Stderr.Write(errOut.Bytes())
	if code == 0 {
		// Help, or an answer from an engine that does not plan.
		return p, 0, false
	}
	return p, code, false
}

// confirmExec asks the user on the terminal, as exec in one process
// does; a signal takes the question back.
func confirmExec(q *wire.ExecAsk, sigs <-chan os.Signal) (bool, string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-stop:
		}
	}()
	return q.Confirm(ctx, os.Stdin, os.Stderr)
}

// reportExec runs the after-hooks and prints what they had to say. A
// signal cuts them short: closing this process's connection stops them in
// the engine.
func reportExec(bin string, r wire.ExecReport, sigs <-chan os.Signal) {
	body, err := json.Marshal(r)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agenthooks: report the command:", err)
		return
	}
	var out, errOut bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		step(bin, []string{"exec", "--report"}, body, nil, &out, &errOut)
	}()
	select {
	case <-done:
		os.Stderr.Write(errOut.Bytes())
	case <-sigs:
	case <-time.After(reportWait):
		fmt.Fprintln(os.Stderr, "agenthooks: the after-hooks did not finish; the command's status stands")
	}
}

// reportWait bounds the after-hooks of one command, as seen from here:
// the engine bounds each hook by its own timeout; this bounds an engine
// that neither answers nor goes away.
const reportWait = 10 * time.Minute

// signalCode is the exit status of a process killed by sig: 128+N.
func signalCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok && s > 0 && s < 128 {
		return 128 + int(s)
	}
	return 128 + 2
}
