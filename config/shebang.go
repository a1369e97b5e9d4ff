package config

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// BadInterpreters reports each command hook whose program is a script
// (named by a path) that starts with "#!" naming an interpreter that is
// not there: the kernel refuses to start it, and the hook fails at every
// run as when the script itself is missing. The usual causes are a script
// saved with Windows line endings ("#!/bin/sh\r") and an interpreter
// installed elsewhere on this machine than on the author's. An absolute
// interpreter that is not there disarms the hook (Problem.Disarms); a
// name that /usr/bin/env finds on no folder of env's PATH is a warning,
// since PATH is this process's, which may not be the agent's.
func BadInterpreters(hooks []*Hook, env []string) []Problem {
	if runtime.GOOS == "windows" {
		return nil // no "#!" lines there
	}
	var out []Problem
	for _, h := range hooks {
		if h.Type != TypeCommand {
			continue
		}
		if p, ok := badInterpreter(h, env); ok {
			out = append(out, p)
		}
	}
	return out
}

// badInterpreter checks the "#!" line of hook h's program.
func badInterpreter(h *Hook, env []string) (Problem, bool) {
	words := strings.Fields(strings.SplitN(h.Command, "\n", 2)[0])
	if len(words) == 0 || !strings.Contains(words[0], "/") || strings.ContainsAny(words[0], `$"'\`+"`") {
		return Problem{}, false
	}
	script := words[0]
	if !filepath.IsAbs(script) {
		script = filepath.Join(h.Dir, script)
	}
	line, ok := shebang(script)
	if !ok {
		return Problem{}, false
	}
	effect := "lets the step through"
	if h.FailClosed {
		effect = "blocks the step (failClosed)"
	}
	p := Problem{File: h.File, Severity: Error, Disarms: true}
	if strings.HasSuffix(line, "\r") {
		p.Message = fmt.Sprintf("%s[%d]: %s has Windows line endings: its first line asks for the interpreter %q, carriage return included, which is not there, so the hook fails at every run, which %s", h.Step, h.Index, words[0], strings.TrimLeft(line, " \t"), effect)
		p.Fix = "save the script with Unix line endings (LF), e.g. sed -i 's/\\r$//' " + words[0]
		return p, true
	}
	args := strings.Fields(line)
	if len(args) == 0 {
		return Problem{}, false
	}
	interp := args[0]
	if !isExecutableFile(interp) {
		p.Message = fmt.Sprintf("%s[%d]: %s starts with #!%s, and %s is not an executable file: the hook fails at every run, which %s", h.Step, h.Index, words[0], line, interp, effect)
		p.Fix = "correct the #! line (e.g. #!/usr/bin/env " + filepath.Base(interp) + "), or install the interpreter"
		return p, true
	}
	if filepath.Base(interp) == "env" && len(args) > 1 && !strings.HasPrefix(args[1], "-") && !strings.Contains(args[1], "=") && !onPath(args[1], env) {
		p.Severity, p.Disarms = Warning, false
		p.Message = fmt.Sprintf("%s[%d]: %s starts with #!%s, and %q is in no folder of this PATH: the hook fails at every run, which %s", h.Step, h.Index, words[0], line, args[1], effect)
		p.Fix = "install it, or correct the #! line"
		return p, true
	}
	return Problem{}, false
}

// shebang returns what follows "#!" on the first line of the file at
// path, carriage return kept, when the file starts with one.
func shebang(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	buf := make([]byte, 256) // the kernel reads no more of it either
	n, _ := io.ReadFull(f, buf)
	buf = buf[:n]
	if !bytes.HasPrefix(buf, []byte("#!")) {
		return "", false
	}
	line, _, _ := bytes.Cut(buf[2:], []byte("\n"))
	return strings.TrimLeft(string(line), " \t"), true
}

func isExecutableFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// onPath reports whether name is an executable file in a folder of env's
// PATH (true when env has no PATH: nothing to judge by).
func onPath(name string, env []string) bool {
	path, found := "", false
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path, found = v, true
		}
	}
	if !found {
		return true
	}
	for _, dir := range filepath.SplitList(path) {
		if dir != "" && isExecutableFile(filepath.Join(dir, name)) {
			return true
		}
	}
	return false
}
