package proc

import (
	"strings"

	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// NeedsShell reports whether command must go through the shell. It answers
// false only for a line of plain words (shellquote.PlainPOSIX: ASCII
// letters, digits and _ - . / : = , + @ %) separated by spaces or tabs, whose first word is not a shell keyword or builtin and is neither an
// assignment (FOO=1 cmd) nor a job spec (%1). Such a line means the same
// thing to sh and to a plain exec of its words; anything else (quotes,
// expansions, globs, redirections, operators, comments, newlines, non-ASCII)
// is left to the shell. The check is deliberately conservative: a false
// "needs shell" costs about a millisecond, a false "direct" changes what a
// user's hook does.
func NeedsShell(command string) bool {
	words := splitWords(command)
	if len(words) == 0 {
		return true
	}
	for _, w := range words {
		if !shellquote.PlainPOSIX(w) {
			return true
		}
	}
	first := words[0]
	return strings.ContainsAny(first, "=%") || shellWords[first]
}

// splitWords splits command on runs of spaces and tabs, which is all sh's
// word splitting does to a line that NeedsShell accepts.
func splitWords(command string) []string {
	return strings.FieldsFunc(command, func(r rune) bool { return r == ' ' || r == '\t' })
}

// shellWords are the first words that sh treats specially: reserved words,
// POSIX special and regular builtins, and the builtins of dash and bash. A
// builtin may shadow a binary of the same name that behaves differently
// (echo -e, pwd, kill, test, true --help), so all of them go to the shell.
var shellWords = map[string]bool{
	// Reserved words.
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true, "done": true,
	"case": true, "esac": true, "while": true, "until": true, "for": true, "in": true,
	"function": true, "select": true, "time": true, "coproc": true,
	// Special builtins.
	"break": true, ":": true, "continue": true, ".": true, "eval": true, "exec": true,
	"exit": true, "export": true, "readonly": true, "return": true, "set": true,
	"shift": true, "times": true, "trap": true, "unset": true,
	// Regular builtins (POSIX, dash, bash).
	"alias": true, "bg": true, "cd": true, "command": true, "false": true, "fc": true,
	"fg": true, "getopts": true, "hash": true, "jobs": true, "kill": true, "newgrp": true,
	"pwd": true, "read": true, "true": true, "type": true, "ulimit": true, "umask": true,
	"unalias": true, "wait": true, "echo": true, "printf": true, "test": true,
	"local": true, "let": true, "declare": true, "typeset": true, "source": true,
	"builtin": true, "enable": true, "help": true, "history": true, "logout": true,
	"mapfile": true, "readarray": true, "shopt": true, "suspend": true, "disown": true,
	"caller": true, "compgen": true, "complete": true, "compopt": true, "dirs": true,
	"popd": true, "pushd": true, "bind": true, "chdir": true,
}
