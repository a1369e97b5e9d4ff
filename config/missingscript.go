package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// interpreters are programs whose first argument (after the subcommand
// some take) is the script they run, which a hook's command names by a
// path: when that file is not there, the interpreter starts, fails, and
// the hook fails at every run just as when the program itself is missing.
var interpreters = map[string]string{
	"node": "", "python": "", "python3": "", "bash": "", "sh": "", "zsh": "", "ruby": "", "perl": "",
	"bun": "run", "deno": "run", "uv": "run", "tsx": "", "ts-node": "",
}

// resolvers find a script named without its suffix (module resolution).
var resolvers = map[string]bool{"node": true, "bun": true, "deno": true, "tsx": true, "ts-node": true}

// scriptSuffixes mark an argument as a script's path even without a "/".
var scriptSuffixes = []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".py", ".sh", ".bash", ".rb", ".pl"}

// MissingScripts reports each command hook that runs an interpreter on a
// script, named by a relative or absolute path, that is not there from
// where the hook runs (Hook.Dir): it fails at every run, which lets the
// step through. The common cause is a path written relative to the hooks
// file's folder while a project's hooks run from the workspace root;
// where the file is there from the hooks file's folder, the fix says so.
// Arguments with shell syntax ($VAR, quotes, globs) are not judged.
func MissingScripts(hooks []*Hook) []Problem {
	var out []Problem
	for _, h := range hooks {
		if h.Type != TypeCommand {
			continue
		}
		script, ok := scriptArg(h.Command)
		if !ok {
			continue
		}
		path := script
		if !filepath.IsAbs(path) {
			path = filepath.Join(h.Dir, path)
		}
		if _, err := os.Stat(path); err == nil {
			continue
		}
		effect := "lets the step through"
		if h.FailClosed {
			effect = "blocks the step (failClosed)"
		}
		fix := "create the script, or correct its path"
		if !filepath.IsAbs(script) && h.File != "" {
			beside := filepath.Join(filepath.Dir(h.File), script)
			if _, err := os.Stat(beside); err == nil {
				if rel, err := filepath.Rel(h.Dir, beside); err == nil && !strings.HasPrefix(rel, "..") {
					fix = fmt.Sprintf("the hook runs from %s, not from the hooks file's folder: write %s", h.Dir, filepath.ToSlash(rel))
				}
			}
		}
		out = append(out, Problem{File: h.File, Severity: Error, Disarms: true,
			Message: fmt.Sprintf("%s[%d]: the script %q is not there (looked for from %s): the hook fails at every run, which %s", h.Step, h.Index, script, h.Dir, effect),
			Fix:     fix})
	}
	return out
}

// scriptArg is the script an interpreter command runs: the first word
// after the interpreter (and its subcommand, such as bun's run) that is
// not a flag, when it looks like a path (a "/" or a script's suffix) and
// is plain text.
func scriptArg(command string) (string, bool) {
	line := strings.TrimSpace(strings.SplitN(command, "\n", 2)[0])
	words := strings.Fields(line)
	if len(words) < 2 {
		return "", false
	}
	prog := filepath.Base(words[0])
	sub, ok := interpreters[prog]
	if !ok || prog != words[0] && !filepath.IsAbs(words[0]) {
		return "", false
	}
	rest := words[1:]
	if sub != "" {
		if rest[0] != sub {
			return "", false
		}
		rest = rest[1:]
	}
	for _, w := range rest {
		if strings.HasPrefix(w, "-") {
			if w == "-c" || w == "-e" || w == "-m" || w == "--eval" {
				return "", false // code or a module, not a file
			}
			continue
		}
		if !shellquote.PlainPOSIX(w) || strings.ContainsAny(w, "*?[~=") {
			return "", false
		}
		if resolvers[prog] && filepath.Ext(w) == "" {
			// node .cursor/hooks/guard runs guard.js (or index.js, …):
			// module resolution, not a file's name.
			return "", false
		}
		looksLikePath := strings.Contains(w, "/")
		for _, s := range scriptSuffixes {
			looksLikePath = looksLikePath || strings.HasSuffix(w, s)
		}
		return w, looksLikePath
	}
	return "", false
}
