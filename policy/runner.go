package policy

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/runner"
)

// Runner runs command hooks of the form `agenthooks policy FILE` in
// process, and every other hook through Fallback. The hook still works
// in Cursor, which runs the same command as a process; here it saves the
// process start, and answers byte for byte what the process would print.
//
// Register it for the "command" hook type:
//
//	engine.Options{Runners: map[string]runner.Runner{
//		config.TypeCommand: policy.Runner{Fallback: runner.Command{}},
//	}}
type Runner struct {
	// Fallback runs the hooks that are not policies; nil means
	// runner.Command{}.
	Fallback runner.Runner
	// Cache holds the compiled policies; nil means the process-wide one.
	Cache *Cache
}

// InProcess implements runner.InProcess: a policy hook is evaluated here.
func (r Runner) InProcess(h *config.Hook) bool {
	_, ok := policyFileCached(h.Command)
	return ok && (h.Shape == nil || h.Shape.InProcess())
}

// Run implements runner.Runner.
func (r Runner) Run(ctx context.Context, req runner.Request) runner.Result {
	file, ok := policyFileCached(req.Hook.Command)
	// A hook of another agent's settings file gets that agent's payload
	// and is read by its rules, which only the process path does.
	if !ok || req.Hook.Shape != nil && !req.Hook.Shape.InProcess() {
		fb := r.Fallback
		if fb == nil {
			fb = runner.Command{}
		}
		return fb.Run(ctx, req)
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(req.Hook.Dir, file)
	}
	start := time.Now()
	cache := r.Cache
	if cache == nil {
		cache = defaultCache
	}
	res := evaluate(ctx, cache, file, req)
	res.Duration = time.Since(start)
	return res
}

func evaluate(ctx context.Context, cache *Cache, file string, req runner.Request) runner.Result {
	p, err := cache.Get(file)
	if err != nil {
		// Spawn error: the policy could not start, just as a hook whose
		// program is missing. failClosed hooks block on it.
		return runner.Result{Failure: runner.SpawnError, ExitCode: -1, Detail: "policy " + firstProblem(err)}
	}
	// CEL has no unbounded loops: evaluation time grows with the payload.
	// A small payload is decided in microseconds, far inside any hook
	// timeout, so only large ones (a beforeReadFile of a big file) pay for
	// a timer.
	if req.Timeout > 0 && len(req.Payload) > 64<<10 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	// The engine has checked that the payload is a JSON object.
	v, err := p.decideRaw(ctx, req.Step, req.Payload, CallerEnv(req.Env))
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return runner.Result{Failure: runner.Timeout, ExitCode: -1, Detail: "policy " + file + ": timed out after " + req.Timeout.String()}
	case errors.Is(err, context.Canceled):
		return runner.Result{Failure: runner.Canceled, ExitCode: -1, Detail: "canceled before the policy finished"}
	case err != nil:
		// As the process would: a message on stderr and exit status 1.
		msg := "agenthooks: " + err.Error()
		return runner.Result{Failure: runner.ExitStatus, ExitCode: 1, Stderr: []byte(msg + "\n"),
			Detail: "exited with status 1: " + msg}
	}
	return runner.Result{Response: v.Response(req.Step), Stdout: v.line(req.Step, "\n")}
}

// firstProblem is the first line of a compile error, for a one-line
// failure detail (the log and fail-closed messages).
func firstProblem(err error) string {
	var errs Errors
	if errors.As(err, &errs) && len(errs) > 0 {
		s := errs[0].Error()
		if len(errs) > 1 {
			s += " (and more: run agenthooks policy check)"
		}
		return s
	}
	return err.Error()
}

// recognised remembers File's answer per hook command: there are
// few distinct commands (those of the loaded configuration) and every
// decision asks.
var recognised sync.Map // string → policyCommand

type policyCommand struct {
	file string
	ok   bool
}

func policyFileCached(command string) (string, bool) {
	if v, ok := recognised.Load(command); ok {
		pc := v.(policyCommand)
		return pc.file, pc.ok
	}
	file, ok := File(command)
	recognised.Store(command, policyCommand{file, ok})
	return file, ok
}

// File recognises a hook command that evaluates a policy:
// `agenthooks policy FILE`, where the program is agenthooks or any path
// whose base name is agenthooks (agenthooks.exe on Windows), and FILE is
// one word. Anything else (other arguments, pipes, variables, globs,
// redirections) is not recognised, and runs as a process: the result is
// the same, only slower. A word may be quoted as a whole ('…' or "…"
// without $, ` or \ inside) to hold spaces.
func File(command string) (string, bool) {
	words, ok := simpleWords(command)
	if !ok || len(words) != 3 || words[1] != "policy" {
		return "", false
	}
	if !isAgenthooks(words[0]) {
		return "", false
	}
	f := words[2]
	if f == "" || strings.HasPrefix(f, "-") || f == "check" || f == "test" {
		return "", false
	}
	return f, true
}

func isAgenthooks(prog string) bool {
	base := prog
	if i := strings.LastIndexAny(prog, `/\`); i >= 0 {
		base = prog[i+1:]
	}
	return base == "agenthooks" || strings.EqualFold(base, "agenthooks.exe")
}

// simpleWords splits a command made only of plain words separated by
// blanks. It refuses anything a shell would interpret: operators,
// expansions, globs, comments, tildes, escapes (backslashes are allowed
// only as Windows path separators, where the hook runs in PowerShell).
func simpleWords(s string) ([]string, bool) {
	var words []string
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return words, true
		}
		if q := s[i]; q == '\'' || q == '"' {
			end := strings.IndexByte(s[i+1:], q)
			if end < 0 {
				return nil, false
			}
			w := s[i+1 : i+1+end]
			if q == '"' && strings.ContainsAny(w, "$`\\!") || q == '\'' && strings.ContainsAny(w, "\n") {
				return nil, false
			}
			i += end + 2
			if i < len(s) && s[i] != ' ' && s[i] != '\t' {
				return nil, false
			}
			words = append(words, w)
			continue
		}
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			if strings.IndexByte(shellMeta, s[i]) >= 0 || s[i] == '\\' && !windowsPaths {
				return nil, false
			}
			i++
		}
		w := s[start:i]
		if strings.HasPrefix(w, "~") {
			return nil, false
		}
		words = append(words, w)
	}
}

// windowsPaths is true where hooks run in PowerShell, in which a
// backslash is a path separator rather than an escape.
var windowsPaths = runtime.GOOS == "windows"

// shellMeta are the characters that make a word more than a word to
// /bin/sh or PowerShell.
const shellMeta = "|&;<>()$`\"'*?[]{}#!=,@\n\r"
