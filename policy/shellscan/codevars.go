package shellscan

import (
	"strings"
)

// codeVars are environment variables whose value a program runs as
// code, or that choose the code or configuration a program loads: a
// shell's startup file (BASH_ENV, ENV) and prompt commands, an exported
// function (BASH_FUNC_name%%), git's editors, pagers, ssh and askpass
// programs and its configuration given in the environment, the dynamic
// loader's preloads, and the interpreters' startup options. Assigning
// one (`GIT_EDITOR='git push …' git commit`, `env BASH_ENV=f bash -c
// true`, `export PAGER=…`) runs code the line does not show: dynamic,
// unless the value is plainly an inert program (InertCommand).
var codeVars = setOf("BASH_ENV", "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4",
	"SHELLOPTS", "BASHOPTS", "ZDOTDIR", "EDITOR", "VISUAL", "PAGER", "MANPAGER", "BROWSER",
	"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_SSH", "GIT_SSH_COMMAND",
	"GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "GIT_EXEC_PATH",
	"GIT_TEMPLATE_DIR", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "LD_PRELOAD", "LD_AUDIT", "LESSOPEN", "LESSCLOSE",
	"PERL5OPT", "PERL5DB", "RUBYOPT", "NODE_OPTIONS", "PYTHONSTARTUP", "DYLD_INSERT_LIBRARIES")

// codeVar reports a variable whose value may be code run by a program
// (codeVars, git's GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n, and an exported
// bash function, BASH_FUNC_name%%), and ENV, the startup file of an
// interactive POSIX shell.
func codeVar(name string) bool {
	return codeVars[name] || name == "ENV" || strings.HasPrefix(name, "BASH_FUNC_") ||
		strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
}

// inertPrograms run nothing but themselves: as a pager or an editor they
// show or edit a file.
var inertPrograms = setOf("cat", "less", "more", "most", "true", "false", "head", "tail", "vi",
	"vim", "nvim", "nano", "emacs", "delta", "code", "subl", "mate", "micro", "hx", "kak", "ed")

// InertCommand reports a command value (a pager, an editor) that plainly
// runs nothing but an inert program: its first word names one (any
// directory), and the others are options, with nothing a shell would
// expand or treat as an operator. "" (git then uses its default) and
// /dev/null (no hooks) are inert.
func InertCommand(v string) bool {
	if strings.ContainsAny(v, ";|&`$<>()\\\"'\n") {
		return false
	}
	words := strings.Fields(v)
	if len(words) == 0 || v == "/dev/null" {
		return true // git's default, or nothing (core.hooksPath=/dev/null)
	}
	if !inertPrograms[baseName(words[0])] {
		return false
	}
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") || strings.HasPrefix(w, "-c") || strings.HasPrefix(w, "--cmd") {
			return false // an operand, or vim's -c/--cmd command
		}
	}
	return true
}

// codeAssign reports an assignment of name to value (valueKnown: its
// literal value is value) that runs code the line does not show.
func codeAssign(name, value string, valueKnown bool) bool {
	if !codeVar(name) {
		return false
	}
	switch {
	case name == "GIT_CONFIG_GLOBAL" || name == "GIT_CONFIG_SYSTEM":
		return !valueKnown || value != "/dev/null" && value != ""
	case name == "ENV":
		// Applications use ENV for a word (ENV=production); a shell
		// reads it as a file's name.
		return !valueKnown || strings.ContainsAny(value, "/.~")
	case strings.HasPrefix(name, "PS"):
		// A prompt runs code only through a command substitution.
		return !valueKnown || strings.Contains(value, "$(") || strings.Contains(value, "`")
	}
	return !valueKnown || !InertCommand(value)
}

// noteCodeAssign reports an assignment that runs code as a dynamic
// command of its own.
func (w *walker) noteCodeAssign(name, value string, valueKnown bool, text string, via []string, cwd string) {
	if codeAssign(name, value, valueKnown) {
		w.dynamicAll(text, appendVia(via, name+"="), cwd)
	}
}
