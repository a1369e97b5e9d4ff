package shellscan

import (
	"strings"
)

// A program the analysis does not know may run its operands as a
// command: `faketime @0 git push origin main`, `proxychains git push …`,
// `npm exec -- git push …`, `docker exec ctr sh -c '…'`. No list of such
// programs can be complete, so for every program that is neither one the
// analysis reads (wrappers, shells, interpreters, git, …) nor one known
// never to run its operands (inertPrograms), each operand that names a
// program the analysis reads (git, a shell, a wrapper, an interpreter,
// rm, cat, …) starts a command that may run: it is reported with the
// program as its via, suffixed "?" (`faketime?`). Such a speculative
// command says only what it plainly shows: a shell or an interpreter
// without code (`apt-get install bash python3`) is no dynamic command, a
// git subcommand that is neither git's own nor an alias is no push (one
// that cannot be read still is a dynamic one), and an operand that
// cannot be read starts nothing.

// runsNothing are programs known never to run their operands as a
// command: they print, search, compare or describe them.
var runsNothing = setOf("echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "man",
	"info", "tldr", "which", "whereis", "whatis", "apropos", "type", "help", "hash", "cat", "ls",
	"wc", "head", "tail", "sort", "uniq", "cut", "tr", "jq", "yq", "diff", "cmp", "test", "[",
	"[[", "true", "false", ":", "mkdir", "rmdir", "touch", "chmod", "chown", "stat", "file",
	"basename", "dirname", "realpath", "readlink", "less", "more", "column", "fold", "fmt",
	"nl", "od", "xxd", "hexdump", "base64", "sha256sum", "md5sum", "git", "cd", "pushd", "popd",
	"export", "unset", "read", "local", "declare", "typeset", "readonly", "let", "shift", "set",
	"alias", "unalias", "shopt", "history", "complete", "compgen", "logger", "notify-send",
	"cowsay", "figlet", "wall", "write", "say", "espeak", "tput", "clear", "reset", "sleep",
	"kill", "pkill", "killall", "pgrep", "ps", "top", "htop", "df", "du", "free", "uname",
	"hostname", "whoami", "id", "date", "cal", "seq", "yes", "expr", "bc", "dc", "ln", "cp",
	"mv", "rm", "tee", "touch", "install", "gzip", "gunzip", "zip", "unzip", "tar", "xz",
	"bzip2", "zstd", "apt-cache", "dpkg", "dpkg-query", "rpm", "brew", "apt", "apt-get", "yum",
	"dnf", "pacman", "apk", "zypper", "pip", "pip3", "pipx", "gem", "cargo-install", "go",
	"rustup", "asdf", "mise", "nvm", "sdk", "choco", "winget", "scoop", "snap", "flatpak")

// speculated are the programs whose name as an operand starts a
// speculative command: those the analysis reads, and those policies
// commonly look for.
func speculated(word string) bool {
	if strings.ContainsRune(word, '/') && !strings.HasPrefix(word, "/") {
		return false // a relative path: a file of the workspace, or an argument
	}
	name := baseName(word)
	switch {
	case name == "git" || strings.HasPrefix(name, "git-"), shells[name]:
		return true
	case otherShells[strings.ToLower(name)], ownSyntaxRunners[name]:
		return true
	}
	if _, ok := wrappers[name]; ok {
		return true
	}
	switch name {
	case "eval", "source", "xargs", "find", "make", "rm", "cat", "awk", "gawk", "sed", "curl",
		"wget", "ssh", "scp", "rsync", "dd", "su", "runuser", "script", "flock", "watch", "trap",
		"agenthooks", "python", "python2", "python3", "node", "nodejs", "perl", "ruby", "php",
		"lua", "bun", "deno", "pypy", "pypy3", "vim", "vi", "nvim", "emacs":
		return true
	}
	return strings.HasPrefix(name, "python3.")
}

// maxSpeculated bounds the speculative commands of one line: one
// program's operands may start several, each of which may be an unknown
// program in turn.
const maxSpeculated = 64

// speculate reports the commands an unknown program may run.
func (w *walker) speculate(c *call, name string, args argv) {
	if runsNothing[name] {
		return
	}
	for i, a := range args {
		if a.dynamic || !speculated(a.s) {
			continue
		}
		if x := w.extra(); x.speculated >= maxSpeculated {
			w.dynamicAll(c.text, appendVia(c.via, name+"?"), c.cwd)
			return
		}
		w.x.speculated++
		sub := c.sub(args[i:], name+"?")
		sub.spec = true
		sub.st = c.st.clone()
		w.run(sub)
	}
}
