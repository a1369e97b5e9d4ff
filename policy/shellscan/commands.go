package shellscan

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Command is one simple command that a shell command line would run, as
// far as static analysis can tell. Commands finds them through lists,
// pipelines, subshells, blocks, control structures, command and process
// substitutions, and through the programs that run other programs
// (`sudo`, `env`, `xargs`, `bash -c`, `eval`, …), so a policy that looks
// for `git push` sees it however it is spelled.
type Command struct {
	// Name is the program's base name ("git" for /usr/bin/git); empty when
	// Dynamic.
	Name string
	// Path is the program as written, after quote removal and the
	// expansion of variables assigned earlier on the line; for a dynamic
	// program, its source text.
	Path string
	// Args are the arguments after the program, expanded the same way. An
	// argument that cannot be known statically is kept as its source text
	// and its index is listed in DynamicArgs.
	Args []string
	// Dynamic is true when the program cannot be known statically:
	// `$(echo git) push`, `$CMD`, `eval "$x"`, a script read from a pipe.
	// Policies that must not be bypassed deny such commands.
	Dynamic bool
	// DynamicArgs lists the indexes in Args whose value cannot be known
	// statically (a command substitution, an unknown variable, a glob,
	// the arguments xargs reads from its input).
	DynamicArgs []int
	// Env holds the variables set for this command alone (`A=b cmd`,
	// `env A=b cmd`).
	Env map[string]string
	// Via lists the programs this one was found inside, outermost first:
	// "sudo", "bash -c", "eval", "xargs", "$()", ….
	Via []string
	// Cwd is the directory the command runs in relative to where the line
	// starts ("." unchanged, "sub" after `cd sub`, "/tmp" after `cd /tmp`),
	// or "" when it cannot be known (`cd "$x"`, `cd -`, inside a
	// function).
	Cwd string
	// Text is the source text of the simple command.
	Text string
	// Reads are the files the command's input redirections open for
	// reading (`cat < .env`, `<> f`), expanded as Args are; one that
	// cannot be known statically is kept as its source text, with
	// Dynamic-like caution left to the policy (a glob stays a glob).
	Reads []string
}

// HasDynamicArgs reports whether some argument cannot be known statically.
func (c *Command) HasDynamicArgs() bool { return len(c.DynamicArgs) > 0 }

// Limits that keep the analysis of hostile input bounded: nesting of
// `bash -c`/eval strings, and the number of commands and fields produced.
const (
	maxNesting  = 16
	maxCommands = 4096
	maxFields   = 4096
	// maxCallWalks bounds the walks of function bodies for their calls
	// on one line (recursion and many calls stay linear).
	maxCallWalks = 64
	// maxBrackets bounds how deep ( { [ and backquotes may nest in one
	// string before it is left unread (dynamic). No command a person
	// writes comes near it.
	maxBrackets = 256
)

// bracketDepth is how deep ( { [ nest in s, quotes ignored (an upper
// bound of what the parser will recurse into); a backquote counts as
// opening one level more each time it appears.
func bracketDepth(s string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{', '[', '`':
			depth++
			deepest = max(deepest, depth)
		case ')', '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return deepest
}

// Commands returns every simple command line would run, in source order,
// with the programs that run other programs unwrapped. A line that does
// not parse yields one dynamic command holding the whole line, so that a
// policy denying dynamic commands also denies what it cannot read.
func Commands(line string) []Command {
	return Analyze(line, nil).Commands
}

// plainWords splits a line made only of words that no shell would
// expand, quote, glob or treat as an operator or keyword: letters,
// digits and - _ . / : , @ % + ^ =, separated by spaces or tabs, and no
// assignment before the program. Most commands an agent runs look like
// this, and skipping the parser for them halves the cost of a decision.
func plainWords(line string) ([]string, bool) {
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == ' ' || c == '\t':
		case strings.IndexByte("-_./:,@%+^=", c) >= 0:
		default:
			return nil, false
		}
	}
	words := strings.Fields(line)
	if len(words) == 0 || strings.Contains(words[0], "=") || syntax.IsKeyword(words[0]) {
		return nil, false
	}
	return words, true
}

// parserPool reuses parsers: a parser keeps buffers between runs, and
// policies parse a command line per decision.
var parserPool = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(false))
}}

func parse(src string) (*syntax.File, error) {
	p := parserPool.Get().(*syntax.Parser)
	defer parserPool.Put(p)
	return p.Parse(strings.NewReader(src), "")
}

// walker collects the commands of one line, including those of the
// command strings nested in it.
type walker struct {
	out []Command
	// visited marks the simple commands already reported, so that the
	// final safety sweep only reports what the structured walk missed.
	visited map[*syntax.CallExpr]bool
	// tainted names variables assigned inside function bodies: a call of
	// the function may change them at any point, so they are never known.
	tainted map[string]bool
	// cwdTainted is set when a function body changes directory.
	cwdTainted bool
	full       bool // maxCommands reached
	// funcs are the functions defined on the line, by name; calls is
	// how deep calls of them nest now.
	funcs     map[string][]funcDef
	calls     int
	callWalks int // function bodies walked for calls (maxCallWalks)
	// writes and touches are Line's Writes and Touches; watched selects
	// the variables touches reports.
	writes, touches bool
	touched         uint8 // Line.TouchedClasses
	// noteFiles is set for a parsed line that may write a file: only
	// then are the files it runs kept (writtenRuns).
	noteFiles bool
	watched   func(string) uint8
	// x holds what few lines need, made when first needed.
	x *walkerExtra
}

// scope is where a piece of source sits: its text (for Command.Text) and
// the wrappers it was found inside.
type scope struct {
	src   string
	via   []string
	depth int
}

func (w *walker) emit(c Command) {
	if len(w.out) >= maxCommands {
		if !w.full {
			w.full = true
			w.out = append(w.out, Command{Dynamic: true, Path: "…", Text: "(too many commands to analyse)"})
		}
		return
	}
	w.out = append(w.out, c)
}

// dynamicAll reports a command string that cannot be analysed (not
// static, does not parse, nested too deeply) as one dynamic command.
func (w *walker) dynamicAll(text string, via []string, cwd string) {
	w.emit(Command{Dynamic: true, Path: text, Via: via, Cwd: cwd, Text: text})
}

// parseAndWalk parses src as a shell program and walks it in st.
func (w *walker) parseAndWalk(src string, st *state, via []string, depth int) {
	if depth > maxNesting || bracketDepth(src) > maxBrackets {
		// Too deep to read: the parser recurses on each level (a line of
		// 200,000 parentheses overflows its stack, and nested $( cost
		// time and memory quadratic in their depth).
		w.dynamicAll(src, via, st.cwd)
		return
	}
	f, err := parse(src)
	if err != nil {
		w.dynamicAll(src, via, st.cwd)
		return
	}
	sc := &scope{src: src, via: via, depth: depth}
	if strings.Contains(src, "${") {
		w.taintExpansionAssigns(f)
	}
	w.stmts(sc, st, f.Stmts)
	// Safety sweep: any simple command the structured walk did not reach
	// (a node kind it does not know) is still reported, without variable
	// knowledge, so nothing that runs is invisible to a policy. The same
	// pass notes the line's redirections and variables (Line).
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if !w.visited[n] && len(n.Args) > 0 {
				w.call(sc, newState(""), n)
			}
			w.noteWords(n.Args)
		case *syntax.Redirect:
			w.writes = w.writes || redirectWrites(n)
		case *syntax.Assign: // also those of export, declare, local, …
			if n.Name != nil {
				w.touchIfWatched(n.Name.Value)
			}
			if n.Name != nil && codeVar(n.Name.Value) && !n.Naked {
				v, ok := "", true
				if n.Value != nil {
					v, ok = w.literal(newState(""), n.Value)
				}
				ok = ok && n.Index == nil && n.Array == nil
				w.noteCodeAssign(n.Name.Value, v, ok, sc.text(n), sc.via, "")
			}
		case *syntax.WordIter:
			if n.Name != nil {
				w.touchIfWatched(n.Name.Value)
			}
		}
		return true
	})
}

// taintExpansionAssigns makes every variable that an expansion may
// assign (`${x:=git}`, `${x=git}`) unknown on the whole line: the
// assignment happens when the word is expanded, wherever that is, and
// `x=; : ${x:=git}; $x push` runs git.
func (w *walker) taintExpansionAssigns(f *syntax.File) {
	syntax.Walk(f, func(n syntax.Node) bool {
		pe, ok := n.(*syntax.ParamExp)
		if !ok || pe.Exp == nil || pe.Param == nil {
			return true
		}
		if pe.Exp.Op == syntax.AssignUnset || pe.Exp.Op == syntax.AssignUnsetOrNull {
			if w.tainted == nil {
				w.tainted = map[string]bool{}
			}
			w.tainted[pe.Param.Value] = true
		}
		return true
	})
}

// text is the source of node n in sc.
func (sc *scope) text(n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(sc.src) || start > end {
		return ""
	}
	return sc.src[start:end]
}

// walkerExtra is what a walker keeps for few lines: the files written
// and run (writtenRuns), and the speculative commands reported
// (speculate).
type walkerExtra struct {
	written    []usedPath
	runs       []fileRun
	speculated int
	// The first few files, kept in the one allocation of the struct.
	writtenBuf [2]usedPath
	runsBuf    [2]fileRun
}

// extraPool keeps walkerExtras between lines: the lines that need one
// (a file written, a program unknown) are not rare enough to allocate
// it for each.
var extraPool = sync.Pool{New: func() any { return new(walkerExtra) }}

// extra returns w.x, taken from extraPool when first needed; release
// gives it back.
func (w *walker) extra() *walkerExtra {
	if w.x == nil {
		w.x = extraPool.Get().(*walkerExtra)
		w.x.written, w.x.runs = w.x.writtenBuf[:0], w.x.runsBuf[:0]
	}
	return w.x
}

// release returns w.x to extraPool, cleared, once the line is read.
func (w *walker) release() {
	if w.x == nil {
		return
	}
	*w.x = walkerExtra{}
	extraPool.Put(w.x)
	w.x = nil
}
