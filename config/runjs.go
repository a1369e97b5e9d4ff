package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// A JavaScript or TypeScript file loads others by require('…'),
// import … from '…', import '…', export … from '…' and import('…'). A
// specifier given as a string literal is followed exactly: a relative one
// (./lib, ../x.js, /abs) resolves as Node resolves it and the file is
// read in turn; a bare one ('lodash') is a package, found in a
// node_modules folder of the file's folder or one above it. Any other
// use of the loaders (require(x), import(`./${x}`), require aliased or
// handed around), the built-in modules that run code from strings or
// other files (child_process, vm, worker_threads, module, …), eval and
// Function, cannot be told: the file's folder is pinned whole instead.

// jsBuiltins are Node's built-in modules: loading one loads no file.
var jsBuiltins = map[string]bool{
	"assert": true, "async_hooks": true, "buffer": true, "console": true, "constants": true,
	"crypto": true, "dgram": true, "diagnostics_channel": true, "dns": true, "domain": true, "events": true,
	"fs": true, "http": true, "http2": true, "https": true, "net": true, "os": true, "path": true,
	"perf_hooks": true, "process": true, "punycode": true, "querystring": true, "readline": true,
	"stream": true, "string_decoder": true, "sys": true, "timers": true, "tls": true, "trace_events": true,
	"tty": true, "url": true, "util": true, "v8": true, "zlib": true, "test": true, "sqlite": true,
	// Built-ins that run code from strings, other files or other programs.
	"child_process": true, "cluster": true, "vm": true, "worker_threads": true, "module": true,
	"repl": true, "wasi": true, "inspector": true,
}

// jsRunners are the built-ins whose use may run a file no specifier
// names.
var jsRunners = map[string]bool{"child_process": true, "cluster": true, "vm": true, "worker_threads": true,
	"module": true, "repl": true, "wasi": true, "inspector": true}

// jsLoaders are names that, used at all, may run code no specifier
// names: eval and Function compile strings, Worker starts a file, the
// rest reach Node's loader by another door.
var jsLoaders = map[string]bool{"eval": true, "Function": true, "Worker": true, "SharedWorker": true,
	"importScripts": true, "dlopen": true, "mainModule": true, "_load": true, "createRequire": true,
	"runInThisContext": true, "runInNewContext": true, "runInContext": true, "compileFunction": true}

// jsFile follows what one JavaScript or TypeScript file loads.
func (r *resolver) jsFile(p, lang string) {
	data, ok := r.readScript(p)
	if !ok {
		return
	}
	specs, why := jsSpecifiers(data)
	if why != "" {
		r.dynamic(p, why)
	}
	for _, spec := range specs {
		r.jsSpecifier(p, lang, spec)
	}
}

// jsSpecifier pins and follows what one literal specifier loads.
func (r *resolver) jsSpecifier(p, lang, spec string) {
	dir := filepath.Dir(p)
	spec = strings.TrimPrefix(spec, "file://")
	name := jsPackageName(strings.TrimPrefix(spec, "node:"))
	switch {
	case spec == "." || spec == ".." || strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") ||
		strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, `.\`) || strings.HasPrefix(spec, `..\`):
		q, ok := r.inside(spec, dir)
		if !ok {
			return
		}
		r.add(q)
		if regularFile(q) {
			if jsCode(q) {
				r.follow(q, lang, 0)
			}
			return
		}
		for _, c := range r.nodeModule(q) {
			if jsCode(c) {
				r.follow(c, lang, 0)
			}
		}
	case strings.HasPrefix(spec, "node:") || jsBuiltins[name] && !strings.Contains(spec, ":"):
		if jsRunners[name] {
			r.dynamic(p, "loads "+name+", which may run files or code no specifier names")
		}
	case strings.HasPrefix(spec, "#"):
		r.dynamic(p, "imports "+spec+", which its package.json's imports map")
	case strings.Contains(spec, ":"):
		r.dynamic(p, "imports "+spec+", which its runtime resolves by a scheme of its own")
	default:
		r.jsPackage(p, lang, spec, name)
	}
}

// jsPackage pins what a bare specifier may load from the workspace: the
// package's folder in each node_modules Node would look in, from the
// file's folder up to the workspace root (those absent are pinned as
// absent, so a package added where Node would find it first is a
// change), and, once found, that whole node_modules folder (what the
// package loads in turn is not read). The TypeScript runners, bun and
// deno may also map a bare specifier elsewhere (tsconfig paths, an
// import map): for them it is dynamic too.
func (r *resolver) jsPackage(p, lang, spec, name string) {
	// The nearest package.json may name this very package, whose exports
	// map the specifier to its own files (a self-reference).
	for d := filepath.Dir(p); r.inWorkspace(d); d = filepath.Dir(d) {
		pj := filepath.Join(d, "package.json")
		r.add(pj)
		if data, ok := r.readScript(pj); ok {
			var pkg struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(data, &pkg) != nil || pkg.Name == name {
				r.dynamic(p, "imports "+spec+", which "+pj+" may map to its own files")
			}
			break
		}
		if d == r.root {
			break
		}
	}
	for d := filepath.Dir(p); r.inWorkspace(d); d = filepath.Dir(d) {
		nm := filepath.Join(d, "node_modules")
		cand := filepath.Join(nm, filepath.FromSlash(name))
		r.add(cand)
		if _, err := os.Stat(cand); err == nil {
			r.add(nm)
			r.note(RunNote{Message: p + " loads the package " + name + " from " + nm + ": what it loads in turn is not read, so that folder is pinned whole"})
			break
		}
		if d == r.root {
			break
		}
	}
	if lang == langJS {
		r.dynamic(p, "imports "+spec+", which bun, deno and the TypeScript runners may map by a configuration of their own")
	}
}

// jsPackageName is a bare specifier's package: lodash of lodash/fp,
// @scope/x of @scope/x/y.
func jsPackageName(spec string) string {
	parts := strings.SplitN(spec, "/", 3)
	if strings.HasPrefix(spec, "@") && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// jsCode reports a file Node loads as code: a script extension, or none
// (require('./x') of a file named x runs it as CommonJS).
func jsCode(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == "" || ext != ".json" && ext != ".node" && extLangs[ext] == langNode
}

// jsSpecifiers returns the string-literal specifiers a file loads, and,
// when it also loads something it names otherwise, why.
func jsSpecifiers(src []byte) (specs []string, why string) {
	l := jsLexer{src: src}
	if len(src) > 1 && src[0] == '#' && src[1] == '!' {
		// The #! line is the program's, not code.
		for l.i < len(src) && src[l.i] != '\n' {
			l.i++
		}
	}
	l.run(false)
	if l.bad {
		return nil, "cannot be read to its end (an unterminated string, comment or template)"
	}
	toks := l.toks
	at := func(k int, kind byte, text string) bool {
		return k < len(toks) && toks[k].kind == kind && (text == "" || toks[k].text == text)
	}
	dynamic := func(reason string) {
		if why == "" {
			why = reason
		}
	}
	for k, t := range toks {
		if t.kind != 'i' {
			continue
		}
		afterDot := k > 0 && at(k-1, 'p', ".")
		switch {
		case t.text == "require":
			switch {
			case at(k+1, 'p', "(") && at(k+2, 's', "") && at(k+3, 'p', ")"):
				specs = append(specs, toks[k+2].text)
			case at(k+1, 'p', ".") && (at(k+2, 'i', "resolve") || at(k+2, 'i', "main")):
				// require.resolve names a path; require.main is the entry
				// module: neither loads a file.
			default:
				dynamic("uses require other than on a string literal")
			}
		case t.text == "import" && !afterDot:
			switch {
			case at(k+1, 'p', "("):
				if at(k+2, 's', "") && (at(k+3, 'p', ")") || at(k+3, 'p', ",")) {
					specs = append(specs, toks[k+2].text)
				} else {
					dynamic("imports a specifier computed when it runs")
				}
			case at(k+1, 's', ""):
				specs = append(specs, toks[k+1].text)
			}
		case t.text == "from" && at(k+1, 's', ""):
			specs = append(specs, toks[k+1].text)
		case jsLoaders[t.text]:
			dynamic("uses " + t.text + ", which may run code no specifier names")
		case (t.text == "Deno" || t.text == "Bun") && at(k+1, 'p', ".") && k+2 < len(toks) &&
			(toks[k+2].text == "run" || toks[k+2].text == "Command" || strings.HasPrefix(toks[k+2].text, "spawn") || toks[k+2].text == "$"):
			dynamic("starts a program with " + t.text + "." + toks[k+2].text)
		}
	}
	return specs, why
}

// jsToken is one token of JavaScript: an identifier or keyword ('i'), a
// string literal or a template without substitutions ('s', its value), a
// template with substitutions ('t'), a number or regular expression
// ('n'), or punctuation ('p').
type jsToken struct {
	kind byte
	text string
}

// jsLexer splits JavaScript (and TypeScript) into tokens, well enough to
// tell code from comments and strings. bad reports a file it could not
// read to its end.
type jsLexer struct {
	src  []byte
	i    int
	toks []jsToken
	bad  bool
}

// jsRegexAfter are the keywords after which / begins a regular
// expression.
var jsRegexAfter = map[string]bool{"return": true, "typeof": true, "instanceof": true, "in": true, "of": true,
	"new": true, "delete": true, "void": true, "throw": true, "case": true, "do": true, "else": true,
	"yield": true, "await": true}

// run lexes until the end, or, in a template's substitution, until its
// closing brace.
func (l *jsLexer) run(inSub bool) {
	depth := 0
	for l.i < len(l.src) && !l.bad {
		c := l.src[l.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			l.i++
		case c == '/' && l.peek(1) == '/':
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		case c == '/' && l.peek(1) == '*':
			end := strings.Index(string(l.src[l.i+2:]), "*/")
			if end < 0 {
				l.bad = true
				return
			}
			l.i += end + 4
		case c == '\'' || c == '"':
			l.str(c)
		case c == '`':
			l.template()
		case c == '/' && l.regexAllowed() && l.regex():
		case c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80:
			j := l.i
			for j < len(l.src) && (isJSIdent(l.src[j])) {
				j++
			}
			l.toks = append(l.toks, jsToken{'i', string(l.src[l.i:j])})
			l.i = j
		case c >= '0' && c <= '9':
			j := l.i
			for j < len(l.src) && (isJSIdent(l.src[j]) || l.src[j] == '.') {
				j++
			}
			l.toks = append(l.toks, jsToken{'n', ""})
			l.i = j
		default:
			if c == '{' {
				depth++
			} else if c == '}' {
				if inSub && depth == 0 {
					l.i++
					return
				}
				depth--
			}
			l.toks = append(l.toks, jsToken{'p', string(c)})
			l.i++
		}
	}
	if inSub {
		l.bad = true
	}
}

func isJSIdent(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (l *jsLexer) peek(n int) byte {
	if l.i+n < len(l.src) {
		return l.src[l.i+n]
	}
	return 0
}

// str lexes a quoted string.
func (l *jsLexer) str(q byte) {
	var b strings.Builder
	for j := l.i + 1; j < len(l.src); j++ {
		switch c := l.src[j]; {
		case c == '\\' && j+1 < len(l.src):
			j++
			if l.src[j] != '\n' {
				b.WriteByte(l.src[j])
			}
		case c == q:
			l.toks = append(l.toks, jsToken{'s', b.String()})
			l.i = j + 1
			return
		case c == '\n':
			l.bad = true
			return
		default:
			b.WriteByte(c)
		}
	}
	l.bad = true
}

// template lexes a template literal; the code of its substitutions is
// lexed as code.
func (l *jsLexer) template() {
	var b strings.Builder
	subs := false
	j := l.i + 1
	for j < len(l.src) && !l.bad {
		switch c := l.src[j]; {
		case c == '\\':
			j += 2
		case c == '`':
			if subs {
				l.toks = append(l.toks, jsToken{'t', ""})
			} else {
				l.toks = append(l.toks, jsToken{'s', b.String()})
			}
			l.i = j + 1
			return
		case c == '$' && j+1 < len(l.src) && l.src[j+1] == '{':
			subs = true
			l.toks = append(l.toks, jsToken{'t', ""})
			l.i = j + 2
			l.run(true)
			j = l.i
		default:
			b.WriteByte(c)
			j++
		}
	}
	l.bad = true
}

// regexAllowed reports whether a / here begins a regular expression
// rather than a division.
func (l *jsLexer) regexAllowed() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.kind {
	case 'i':
		return jsRegexAfter[t.text]
	case 'p':
		return t.text != ")" && t.text != "]"
	}
	return false
}

// regex lexes a regular expression literal; false, and nothing
// consumed, when none ends on this line (it was a division).
func (l *jsLexer) regex() bool {
	class := false
	for j := l.i + 1; j < len(l.src); j++ {
		switch l.src[j] {
		case '\\':
			j++
		case '[':
			class = true
		case ']':
			class = false
		case '\n':
			return false
		case '/':
			if class {
				continue
			}
			j++
			for j < len(l.src) && isJSIdent(l.src[j]) {
				j++
			}
			l.toks = append(l.toks, jsToken{'n', ""})
			l.i = j
			return true
		}
	}
	return false
}
