package config

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The languages whose loading of other files is read (the table in
// docs/cli.md says what each pins, and why):
const (
	langNode   = "node"   // node, nodejs: require/import, node_modules
	langJS     = "js"     // bun, deno, tsx, ts-node: as node, but bare specifiers may be mapped
	langPython = "python" // the script's folder is on sys.path
	langRuby   = "ruby"   // require_relative, require './x', load
	langShell  = "shell"  // source, ., and the scripts it runs
	langOther  = "other"  // a language whose loading is not read
)

// isNodeLang reports a language whose modules resolve as Node's do.
func isNodeLang(lang string) bool { return lang == langNode || lang == langJS }

// interpreterLang is the language a program runs its script argument in,
// or "" for a program that is no interpreter.
func interpreterLang(base string) string {
	switch {
	case base == "node" || base == "nodejs":
		return langNode
	case nodeRunners[base]:
		return langJS
	case strings.HasPrefix(base, "python") || strings.HasPrefix(base, "pypy"):
		return langPython
	case base == "ruby":
		return langRuby
	case shellNames[base]:
		return langShell
	case otherInterpreters[base]:
		return langOther
	}
	return ""
}

// shellNames are the POSIX-like shells whose scripts are read.
var shellNames = map[string]bool{"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "mksh": true, "ash": true}

// otherInterpreters run a script whose loading of other files is not
// read: the script's folder is pinned whole.
var otherInterpreters = map[string]bool{"perl": true, "php": true, "lua": true, "luajit": true, "rscript": true,
	"julia": true, "tclsh": true, "wish": true, "fish": true, "pwsh": true, "powershell": true, "nu": true,
	"elvish": true, "xonsh": true, "awk": true, "gawk": true, "osascript": true, "groovy": true, "kotlin": true,
	"java": true, "swift": true, "elixir": true, "erl": true, "escript": true}

// extLangs are the languages of script files by extension.
var extLangs = map[string]string{
	".js": langNode, ".mjs": langNode, ".cjs": langNode, ".jsx": langNode,
	".ts": langNode, ".mts": langNode, ".cts": langNode, ".tsx": langNode,
	".py": langPython, ".pyw": langPython,
	".rb": langRuby,
	".sh": langShell, ".bash": langShell, ".zsh": langShell, ".ksh": langShell,
	".pl": langOther, ".pm": langOther, ".php": langOther, ".lua": langOther, ".ps1": langOther,
	".psm1": langOther, ".bat": langOther, ".cmd": langOther, ".tcl": langOther, ".r": langOther,
	".jl": langOther, ".go": langOther, ".java": langOther, ".kts": langOther, ".groovy": langOther,
	".fish": langOther, ".nu": langOther, ".awk": langOther, ".exs": langOther, ".swift": langOther,
}

// fileLang is the language of a file by its extension, or else by its
// #! line; "" for a file that is no script (data, a binary).
func fileLang(p string) string {
	if lang, ok := extLangs[strings.ToLower(filepath.Ext(p))]; ok {
		return lang
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 128)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	// The program, or what env runs: #!/usr/bin/env -S node --flag.
	fields := strings.Fields(rest)
	for i, f := range fields {
		base := programBase(f)
		if i == 0 && base == "env" || strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
			continue
		}
		if lang := interpreterLang(base); lang != "" {
			return lang
		}
		return langOther
	}
	return langOther
}

// scriptRun is what an interpreter's arguments say it runs.
type scriptRun struct {
	script   string // the script's word, if a file
	module   string // python -m's module
	inline   bool   // code given on the command line (-c, -e) or standard input
	isolated bool   // python -I or -P: the script's folder is not on sys.path
}

// valueOpts are the short options of each language that take a value
// (which is not the script); codeOpts those that take code instead of a
// script.
var (
	valueOpts = map[string]string{langPython: "WXQ", langNode: "r", langJS: "r", langRuby: "IrCxE", langShell: "oO"}
	codeOpts  = map[string]string{langPython: "c", langNode: "ep", langJS: "ep", langRuby: "e", langShell: "c"}
	// otherCodeOpts are the options by which perl, php, lua, pwsh and
	// the like take code rather than a script.
	otherCodeOpts = map[string]bool{"-e": true, "-E": true, "-r": true, "-c": true, "-Command": true, "-command": true,
		"-EncodedCommand": true, "-encodedcommand": true, "-ec": true}
)

// interpreterRun reads an interpreter's arguments: the first that is no
// option is its script.
func interpreterRun(lang string, args []string) scriptRun {
	var run scriptRun
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) {
				run.script = args[i+1]
				return run
			}
		case a == "-":
			run.inline = true // the script is standard input
			return run
		case lang == langJS && (a == "run" || a == "x" || a == "exec"):
			// bun run FILE, deno run FILE
		case !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+"):
			run.script = a
			return run
		case strings.HasPrefix(a, "--"):
			name, _, eq := strings.Cut(a[2:], "=")
			switch {
			case eq:
			case name == "eval" || name == "print" || name == "command":
				run.inline = true
				return run
			case name == "require" || name == "import" || name == "loader" || name == "experimental-loader":
				i++ // the next word is the option's value
			}
		case lang == langOther:
			// Other programs' options are not known one by one (pwsh's
			// -File, -NoProfile): only their usual code options count.
			if otherCodeOpts[a] {
				run.inline = true
				return run
			}
		default:
			for j := 1; j < len(a); j++ {
				c := a[j]
				switch {
				case lang == langPython && (c == 'I' || c == 'P'):
					run.isolated = true
				case lang == langPython && c == 'm':
					if j+1 < len(a) {
						run.module = a[j+1:]
					} else if i+1 < len(args) {
						run.module = args[i+1]
					}
					return run
				case strings.IndexByte(codeOpts[lang], c) >= 0:
					run.inline = true
					return run
				case strings.IndexByte(valueOpts[lang], c) >= 0:
					if j == len(a)-1 {
						i++ // the value is the next word
					}
					j = len(a) // the rest of the word is the value
				}
			}
		}
	}
	// No script: the interpreter reads its standard input.
	run.inline = true
	return run
}

// follow reads a file the hook runs, in its language, for the files it
// loads in turn, and pins them.
func (r *resolver) follow(p, lang string, depth int) {
	if !r.first(p) {
		return
	}
	switch lang {
	case langNode, langJS:
		r.jsFile(p, lang)
	case langPython:
		r.pythonPath(filepath.Dir(p))
		r.pyFile(p)
	case langRuby:
		r.rubyFile(p)
	case langShell:
		r.shellScript(p, depth)
	case langOther:
		r.dynamic(p, "is run by an interpreter whose loading of other files is not read")
	}
}

// budgetNote keys the note that maxFollowed was reached.
const budgetNote = "\x00budget"

// first reports whether p is to be read now: not read before, and within
// maxFollowed files (past it, it says that what p loads is not pinned).
func (r *resolver) first(p string) bool {
	if r.followed[p] {
		return false
	}
	r.followed[p] = true
	if len(r.followed) > maxFollowed {
		// Said once: the first file left unread names the place.
		if !r.noted[budgetNote] {
			r.noted[budgetNote] = true
			r.notes = append(r.notes, RunNote{Unpinned: true, Message: "more than " + itoa(maxFollowed) + " files follow from what the hook runs: from " + p + " on, what they load is not read, so a file only they load is not pinned"})
		}
		return false
	}
	return true
}

// dynamic pins the whole folder of file in place of what file may run
// that cannot be told, and says so: why completes the sentence "file …".
func (r *resolver) dynamic(file, why string) {
	r.dynamicFolder(filepath.Dir(file), file+" "+why)
}

// dynamicFolder pins folder whole in place of what cannot be told, and
// says so: what, then which folder.
func (r *resolver) dynamicFolder(folder, what string) {
	if !r.inWorkspace(folder) {
		return
	}
	r.add(folder)
	r.note(RunNote{Message: what + ": its folder " + folder + " is pinned instead, every file in it"})
}

// readScript reads a file to find what it loads: a regular file of at
// most maxScriptBytes. One larger is read only as far as its folder:
// pinned whole.
func (r *resolver) readScript(p string) ([]byte, bool) {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	if fi.Size() > maxScriptBytes {
		r.dynamic(p, "is too large to read for the files it loads")
		return nil, false
	}
	data, err := os.ReadFile(p)
	return data, err == nil
}

func itoa(n int) string { return strconv.Itoa(n) }
