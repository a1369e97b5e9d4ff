package runner

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/agenthooks/agenthooks/event"
	"github.com/agenthooks/agenthooks/internal/proc"
)

// Command runs `type: "command"` hooks as processes: payload on stdin,
// answer on stdout, exit code as in Cursor (0 use the JSON, 2 block,
// anything else a failure, unless stdout is a valid answer that denies,
// asks or blocks, which stands with a warning).
type Command struct {
	// StdoutCap and StderrCap bound what is kept of the output; zero
	// means the defaults of internal/proc (64 MiB and 1 MiB).
	StdoutCap, StderrCap int64
}

// Run executes the hook's command and interprets its exit code and output:
// by Cursor's rules, or by its agent's for a hook from another agent's
// settings file (Hook.Shape).
func (c Command) Run(ctx context.Context, req Request) Result {
	env := req.Env
	var envFile string
	shape := req.Hook.Shape
	if shape != nil && shape.EnvFileVar() != "" && req.Step == event.SessionStart {
		// Such an agent's sessionStart hooks set the session's environment
		// by appending export lines to the file its variable names.
		if f, err := os.CreateTemp("", "agenthooks-env-*"); err == nil {
			envFile = f.Name()
			f.Close()
			defer os.Remove(envFile)
			env = append(env[:len(env):len(env)], shape.EnvFileVar()+"="+envFile)
		}
	}
	pr := proc.Run(ctx, proc.Spec{
		Command:   req.Hook.Command,
		Dir:       req.Hook.Dir,
		Env:       env,
		Stdin:     req.Payload,
		Timeout:   req.Timeout,
		StdoutCap: c.StdoutCap,
		StderrCap: c.StderrCap,
	})
	res := Result{
		ExitCode: pr.ExitCode,
		Stdout:   pr.Stdout,
		Stderr:   pr.Stderr,
		Duration: pr.Duration,
	}
	switch {
	case pr.StartErr != nil:
		res.Failure, res.Detail = SpawnError, pr.StartErr.Error()
	case pr.TimedOut:
		res.Failure, res.Detail = Timeout, fmt.Sprintf("timed out after %s", req.Timeout)
	case pr.Canceled:
		res.Failure, res.Detail = Canceled, "canceled before the hook finished"
	case pr.Overflow != "":
		res.Failure, res.Detail = OutputTooLarge, pr.Overflow+" exceeded its size limit"
	case pr.Signal != "" && shape != nil:
		res.Failure, res.Detail = ExitStatus, exitDetail(pr)
	case shape != nil:
		shapedResult(&res, shape, req.Step, envFile)
	case pr.ExitCode == 2:
		res.Blocked = true
		// Messages come from the JSON on stdout when there is valid JSON,
		// else from stderr. The block stands either way.
		if r, err := event.ParseResponse(req.Step, pr.Stdout); err == nil && r != nil {
			res.Response = r
		}
	case pr.ExitCode == 0:
		r, rd, err := event.ParseAnswer(req.Step, pr.Stdout)
		if err != nil {
			res.Failure, res.Detail = InvalidOutput, err.Error()
			break
		}
		res.Response = r
		if rd.Form != "" {
			res.Warning = formWarning(r, rd)
		}
	default:
		if r, rd, err := event.ParseAnswer(req.Step, pr.Stdout); err == nil && rd.Stops(r) {
			// The stricter reading of what the author wrote: a deny printed
			// by a hook that then exits 1 or 3 still denies
			// (docs/semantics.md, one hook).
			res.Response = r
			res.Warning = fmt.Sprintf("exited with status %d but printed an answer that %s: the answer stands (exit 0 with the answer, or exit 2, is what Cursor documents)", pr.ExitCode, rd.StopsWord(r))
			if rd.Form != "" {
				res.Warning += "; " + formWarning(r, rd)
			}
			break
		}
		res.Failure, res.Detail = ExitStatus, exitDetail(pr)
	}
	return res
}

// formWarning says that a hook stopped the action in words not its
// step's own.
func formWarning(r *event.Response, rd event.Reading) string {
	word := rd.StopsWord(r)
	if word == "" {
		word = "gives the model context"
	}
	return "answered with " + rd.Form + ", read as an answer that " + word + " (the stricter reading)"
}

func exitDetail(pr proc.Result) string {
	var b strings.Builder
	if pr.Signal != "" {
		b.WriteString("killed by signal " + pr.Signal)
	} else {
		fmt.Fprintf(&b, "exited with status %d", pr.ExitCode)
	}
	if msg := firstLine(pr.Stderr); msg != "" {
		b.WriteString(": " + msg)
	}
	return b.String()
}

// firstLine returns the first non-empty line of b, trimmed and bounded, as
// a one-line summary of a hook's stderr.
func firstLine(b []byte) string {
	for _, line := range bytes.Split(b, []byte("\n")) {
		if s := strings.TrimSpace(string(line)); s != "" {
			if len(s) > 200 {
				s = s[:200] + "…"
			}
			return strings.ToValidUTF8(s, "\uFFFD")
		}
	}
	return ""
}
