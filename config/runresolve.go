package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// What an interpreter runs is not always a word of the command: `node
// .cursor/hooks/guard` runs guard.js (or guard/index.js, or the main of
// guard/package.json), `python3 -m hooks.guard` runs hooks/guard.py, a
// shell script runs the files it sources, `npm run check` and `make
// check` run what package.json and the Makefile say. resolvedRuns adds
// those files to what trust pins; where it cannot tell (a source of a
// path computed at run time), it pins the folder of the script instead
// and says so (RunFileReport's notes, which validate shows).

// maxResolveDepth bounds how deep resolution follows one file into
// another (a script sourcing a script, an npm script running make).
const maxResolveDepth = 3

// maxScriptBytes bounds what is read of a script to find what it sources.
const maxScriptBytes = 1 << 20

// nodeRunners are programs that resolve a module path as Node does.
var nodeRunners = map[string]bool{"node": true, "nodejs": true, "bun": true, "tsx": true, "ts-node": true, "deno": true}

// nodeExts are the extensions Node (and the TypeScript runners) try for
// a path without one, in order, and the index files of a folder.
var nodeExts = []string{".js", ".mjs", ".cjs", ".json", ".node", ".ts", ".mts", ".cts", ".tsx"}

// resolver gathers the files a hook may run beyond its command's words.
type resolver struct {
	dir, root string
	rootVars  []string
	paths     []string
	notes     []string
	seen      map[string]bool
}

// RunFileReport is RunFilePaths with notes: a sentence for each file the
// hook may run that could not be told, and what is pinned in its place.
func RunFileReport(command, dir, root string, rootVars []string) (paths, notes []string) {
	if root == "" || strings.TrimSpace(command) == "" {
		return nil, nil
	}
	r := &resolver{dir: dir, root: filepath.Clean(root), rootVars: rootVars, seen: map[string]bool{}}
	r.command(command, 0)
	return r.paths, r.notes
}

// add pins p (a clean absolute path inside root), with what a folder or
// glob expands to.
func (r *resolver) add(p string) {
	for _, f := range expandRunPath(p, r.root) {
		if !r.seen[f] {
			r.seen[f] = true
			r.paths = append(r.paths, f)
		}
	}
}

// inside resolves w against dir and reports whether it lies in root (as
// written, or once symlinks are resolved).
func (r *resolver) inside(w, dir string) (string, bool) {
	p := w
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	if p == r.root {
		return p, false
	}
	if within(r.root, p) {
		return p, true
	}
	rr, err := filepath.EvalSymlinks(r.root)
	if err != nil {
		return p, false
	}
	real, err := filepath.EvalSymlinks(p)
	return p, err == nil && within(rr, real) && real != rr
}

// command pins what a command line names and what its interpreters
// resolve.
func (r *resolver) command(command string, depth int) {
	words := commandWords(command, r.root, r.rootVars)
	for _, w := range words {
		if p, ok := r.inside(w, r.dir); ok {
			r.add(p)
		}
	}
	if depth >= maxResolveDepth {
		return
	}
	module := "" // the word a Node runner takes as its module
	for i, w := range words {
		base := strings.TrimSuffix(strings.ToLower(filepath.Base(w)), ".exe")
		switch {
		case nodeRunners[base]:
			if base == "bun" {
				r.npmRun(words[i+1:], depth) // bun run NAME runs a package.json script too
			}
			for _, a := range words[i+1:] {
				if !strings.HasPrefix(a, "-") && a != "run" && a != "x" && a != "exec" {
					module = a
					break
				}
			}
		case strings.HasPrefix(base, "python") && i+1 < len(words):
			if m, ok := pythonModule(words[i+1:]); ok {
				r.pythonModule(m)
			}
		case base == "npm" || base == "pnpm" || base == "yarn":
			r.npmRun(words[i+1:], depth)
		case base == "make" || base == "gmake":
			r.makefile(depth)
		}
	}
	for _, w := range words {
		p, ok := r.inside(w, r.dir)
		if !ok {
			continue
		}
		if w == module && filepath.Ext(p) == "" && !regularFile(p) {
			r.nodeModule(p)
		}
		if isShellScript(p) {
			r.shellSources(p, depth)
		}
	}
}

// nodeModule pins what Node resolves a path to: the path with each
// extension it tries, and for a folder its package.json's main and its
// index files. The candidates that do not exist are pinned too: one that
// appears later is a file added.
func (r *resolver) nodeModule(p string) {
	for _, ext := range nodeExts {
		r.add(p + ext)
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return
	}
	for _, ext := range nodeExts {
		r.add(filepath.Join(p, "index"+ext))
	}
	data, err := os.ReadFile(filepath.Join(p, "package.json"))
	if err != nil {
		return
	}
	var pkg struct {
		Main string `json:"main"`
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Main == "" {
		return
	}
	if m, ok := r.inside(pkg.Main, p); ok {
		r.add(m)
		if filepath.Ext(m) == "" && !regularFile(m) {
			r.nodeModule(m)
		}
	}
}

// pythonModule reads `-m module` (or -mmodule) from python's arguments.
func pythonModule(args []string) (string, bool) {
	for i, a := range args {
		switch {
		case a == "-m" && i+1 < len(args):
			return args[i+1], true
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			return a[2:], true
		case !strings.HasPrefix(a, "-"):
			return "", false // a script: a word of its own
		}
	}
	return "", false
}

// pythonModule pins the files `python -m a.b` may run from the hook's
// folder (first on sys.path): a/__init__.py, a/b.py, a/b/__init__.py,
// a/b/__main__.py. One on another path entry is outside the workspace.
func (r *resolver) pythonModule(m string) {
	parts := strings.Split(m, ".")
	for i := range parts {
		base := filepath.Join(append([]string{r.dir}, parts[:i+1]...)...)
		if p, ok := r.inside(base, r.dir); ok {
			if i < len(parts)-1 {
				r.add(filepath.Join(p, "__init__.py"))
				continue
			}
			r.add(p + ".py")
			r.add(filepath.Join(p, "__init__.py"))
			r.add(filepath.Join(p, "__main__.py"))
		}
	}
}

// npmRun pins package.json and follows the script `npm run NAME` (or
// `yarn NAME`, `pnpm NAME`) runs, with its pre and post scripts.
func (r *resolver) npmRun(args []string, depth int) {
	name := ""
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if (a == "run" || a == "run-script") && i+1 < len(args) {
			name = args[i+1]
		} else if a != "run" && a != "run-script" {
			name = a
		}
		break
	}
	if name == "" || strings.ContainsAny(name, `/\`) || filepath.Ext(name) != "" {
		return // a file (bun run x.ts), a word of its own
	}
	p, ok := r.inside(filepath.Join(r.dir, "package.json"), r.dir)
	if !ok {
		return
	}
	r.add(p)
	data, err := os.ReadFile(p)
	if err != nil {
		return
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return
	}
	for _, s := range []string{"pre" + name, name, "post" + name} {
		if cmd, ok := pkg.Scripts[s]; ok {
			r.command(cmd, depth+1)
		}
	}
}

// makefile pins the Makefile make reads in the hook's folder and follows
// every recipe line in it (which target runs is not told apart).
func (r *resolver) makefile(depth int) {
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		p, ok := r.inside(filepath.Join(r.dir, name), r.dir)
		if !ok {
			continue
		}
		r.add(p)
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for line := range strings.SplitSeq(string(data), "\n") {
			if strings.HasPrefix(line, "\t") {
				r.command(strings.TrimLeft(strings.TrimSpace(line), "@-+"), depth+1)
			} else if rest, ok := strings.CutPrefix(line, "include "); ok {
				r.command(rest, depth+1)
			}
		}
	}
}

// isShellScript reports a file a POSIX shell runs: .sh or .bash, or a
// #! line naming a shell.
func isShellScript(p string) bool {
	if ext := filepath.Ext(p); ext == ".sh" || ext == ".bash" {
		return true
	}
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 128)
	n, _ := f.Read(buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	if !strings.HasPrefix(line, "#!") {
		return false
	}
	for _, sh := range []string{"/sh", "/bash", "/dash", "/zsh", "/ksh", "env sh", "env bash", "env zsh"} {
		if strings.Contains(line, sh) {
			return true
		}
	}
	return false
}

// shellSources pins the workspace files a shell script sources (`source
// f`, `. f`), resolved from the hook's folder and from the script's own;
// a source whose path is computed at run time pins the script's whole
// folder and says so.
func (r *resolver) shellSources(script string, depth int) {
	fi, err := os.Stat(script)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScriptBytes {
		return
	}
	data, err := os.ReadFile(script)
	if err != nil {
		return
	}
	for _, c := range shellscan.Commands(string(data)) {
		if c.Name != "source" && c.Name != "." || len(c.Args) == 0 {
			continue
		}
		if c.Dynamic || slices.Contains(c.DynamicArgs, 0) {
			folder := filepath.Dir(script)
			r.add(folder)
			r.notes = append(r.notes, script+" sources "+strings.TrimSpace(c.Text)+", a path known only when it runs: its folder "+folder+" is pinned instead")
			continue
		}
		for _, from := range []string{r.dir, filepath.Dir(script)} {
			if p, ok := r.inside(c.Args[0], from); ok && !r.seen[p] {
				r.add(p)
				if depth < maxResolveDepth && isShellScript(p) {
					r.shellSources(p, depth+1)
				}
			}
		}
	}
}

// regularFile reports a path that is a regular file now.
func regularFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
