package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// What an interpreter runs is not always a word of the command: `node
// .cursor/hooks/guard` runs guard.js (or guard/index.js, or the main of
// guard/package.json), `python3 -m hooks.guard` runs hooks/guard.py, a
// shell script runs the files it sources, `npm run check` and `make
// check` run what package.json and the Makefile say. And a file that runs
// runs others in turn: guard.js requires ./lib.js, guard.py imports its
// sibling modules, check.sh sources lib.sh. resolvedRuns adds those
// files to what trust pins, following each file the hook runs into the
// files it loads (runfollow.go); where it cannot tell (a path computed at
// run time, a language it does not read), it pins the file's whole folder
// instead and says so (RunFileReport's notes, which validate shows).

// maxResolveDepth bounds how deep resolution follows one command into
// another (an npm script running make running a recipe).
const maxResolveDepth = 4

// maxScriptBytes bounds what is read of a script to find what it loads.
const maxScriptBytes = 1 << 20

// maxFollowed bounds the files read to find what they load, for one
// hook: past it, the rest is reported as not pinned.
const maxFollowed = maxFolderFiles

// nodeRunners are programs that resolve a module path as Node does.
var nodeRunners = map[string]bool{"node": true, "nodejs": true, "bun": true, "tsx": true, "ts-node": true, "deno": true}

// nodeExts are the extensions Node (and the TypeScript runners) try for
// a path without one, in order, and the index files of a folder.
var nodeExts = []string{".js", ".mjs", ".cjs", ".json", ".node", ".ts", ".mts", ".cts", ".tsx"}

// RunNote is a sentence about a file a hook may run that trust could not
// pin by itself.
type RunNote struct {
	Message string
	// Unpinned reports that some file the hook may run is not pinned at
	// all (a folder past maxFolderFiles or maxFolderBytes, or past
	// maxFollowed files read): an edit there would not stop the hook.
	// Otherwise the note says what is pinned in the file's place, so an
	// edit there does stop it.
	Unpinned bool
}

// resolver gathers the files a hook may run beyond its command's words.
type resolver struct {
	dir, root string
	rootVars  []string // the variables that name the root (ProjectDirVars)
	paths     []string
	notes     []RunNote
	seen      map[string]bool                // pinned paths
	followed  map[string]bool                // files read for what they load
	noted     map[string]bool                // notes given
	scripts   map[string][]shellscan.Command // shell scripts read, by path (nil: unreadable)
}

// RunFileReport is RunFilePaths with notes: a sentence for each file the
// hook may run that could not be told, and what is pinned in its place.
func RunFileReport(command, dir, root string, rootVars []string) (paths []string, notes []RunNote) {
	if root == "" || strings.TrimSpace(command) == "" {
		return nil, nil
	}
	r := newResolver(dir, root, rootVars)
	r.command(command, dir, 0)
	return r.paths, r.notes
}

func newResolver(dir, root string, rootVars []string) *resolver {
	return &resolver{dir: dir, root: filepath.Clean(root), rootVars: rootVars, seen: map[string]bool{}, followed: map[string]bool{}, noted: map[string]bool{}}
}

// add pins p (a clean absolute path inside root), with what a folder or
// glob expands to.
func (r *resolver) add(p string) {
	paths, full := expandRunPath(p, r.root)
	for _, f := range paths {
		if !r.seen[f] {
			r.seen[f] = true
			r.paths = append(r.paths, f)
		}
	}
	for _, f := range full {
		r.note(RunNote{Unpinned: true, Message: "the folder " + f + " holds more than " +
			itoa(maxFolderFiles) + " files or " + itoa(maxFolderBytes>>20) + " MiB: only the first are pinned, so an edit to another would not stop the hook"})
	}
}

// note records n once.
func (r *resolver) note(n RunNote) {
	if !r.noted[n.Message] {
		r.noted[n.Message] = true
		r.notes = append(r.notes, n)
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

// inWorkspace reports a folder that is root or lies inside it.
func (r *resolver) inWorkspace(dir string) bool {
	return dir == r.root || within(r.root, dir)
}

// command pins what a command line run from dir names and what its
// interpreters resolve, and follows each file it runs into what that
// file loads.
func (r *resolver) command(command, dir string, depth int) {
	words := commandWords(command, r.root, r.rootVars)
	for _, w := range words {
		if p, ok := r.inside(w, dir); ok {
			r.add(p)
		}
	}
	if depth >= maxResolveDepth {
		r.note(RunNote{Unpinned: true, Message: "`" + strings.TrimSpace(command) + "` is run " + itoa(maxResolveDepth) + " commands deep (npm scripts and make recipes running others): what it runs is not followed, so a file only it runs is not pinned"})
		return
	}
	r.movedCommands(command, dir, depth)
	langOf := map[string]string{} // a word an interpreter runs → its language
	for i, w := range words {
		base := programBase(w)
		switch {
		case base == "npm" || base == "pnpm" || base == "yarn":
			r.npmRun(words[i+1:], dir, depth)
		case base == "make" || base == "gmake":
			r.makefile(dir, depth)
		case base == "bun":
			r.npmRun(words[i+1:], dir, depth) // bun run NAME runs a package.json script too
		}
		r.runnerConfigs(base, dir)
		if envRunners[base] && (base == "npx" || base == "bunx" || slices.Contains(words[i+1:], "run") || slices.Contains(words[i+1:], "exec")) {
			r.envRunner(strings.TrimSpace(command), base)
		}
		lang := interpreterLang(base)
		if lang == "" {
			continue
		}
		if p, ok := r.inside(w, dir); ok && strings.ContainsAny(w, `/\`) {
			r.note(RunNote{Unpinned: true, Message: p + " is an interpreter inside the workspace: what it loads from its own installation there (a virtual environment's site-packages, a package's dependencies) is not pinned"})
		}
		run := interpreterRun(lang, words[i+1:])
		switch {
		case lang == "python":
			r.python(run, dir)
		case run.script != "":
			if _, seen := langOf[run.script]; !seen {
				langOf[run.script] = lang
			}
		case run.inline && lang != langShell:
			r.dynamicFolder(dir, "`"+strings.TrimSpace(command)+"` runs "+base+" code given on its command line or standard input, which is not read for the files it loads")
		}
	}
	for _, w := range words {
		p, ok := r.inside(w, dir)
		if !ok {
			continue
		}
		lang, byRunner := langOf[w]
		if byRunner && isNodeLang(lang) && filepath.Ext(p) == "" && !regularFile(p) {
			for _, c := range r.nodeModule(p) {
				r.follow(c, lang, depth)
			}
			continue
		}
		if !regularFile(p) {
			continue
		}
		if !byRunner {
			lang = fileLang(p)
		}
		if lang != "" {
			r.follow(p, lang, depth)
		}
	}
}

// programBase is the program a word names, lower case, without a
// Windows .exe.
func programBase(w string) string {
	return strings.TrimSuffix(strings.ToLower(filepath.Base(w)), ".exe")
}

// nodeModule pins what Node resolves a path to: the path with each
// extension it tries, and for a folder its package.json's main and its
// index files. The candidates that do not exist are pinned too: one that
// appears later is a file added. It returns the candidates that are
// files now.
func (r *resolver) nodeModule(p string) []string {
	var found []string
	try := func(c string) {
		r.add(c)
		if regularFile(c) {
			found = append(found, c)
		}
	}
	for _, ext := range nodeExts {
		try(p + ext)
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return found
	}
	for _, ext := range nodeExts {
		try(filepath.Join(p, "index"+ext))
	}
	data, err := os.ReadFile(filepath.Join(p, "package.json"))
	if err != nil {
		return found
	}
	r.add(filepath.Join(p, "package.json"))
	var pkg struct {
		Main string `json:"main"`
	}
	if json.Unmarshal(data, &pkg) != nil || pkg.Main == "" {
		return found
	}
	if m, ok := r.inside(pkg.Main, p); ok {
		try(m)
		if filepath.Ext(m) == "" && !regularFile(m) {
			found = append(found, r.nodeModule(m)...)
		}
	}
	return found
}

// pythonModule pins the files `python -m a.b` may run from dir (first on
// sys.path): a/__init__.py, a/b.py, a/b/__init__.py, a/b/__main__.py.
// One on another path entry is outside the workspace. It returns those
// that are files now.
func (r *resolver) pythonModule(m, dir string) []string {
	var found []string
	parts := strings.Split(m, ".")
	for i := range parts {
		base := filepath.Join(append([]string{dir}, parts[:i+1]...)...)
		p, ok := r.inside(base, dir)
		if !ok {
			continue
		}
		cands := []string{filepath.Join(p, "__init__.py")}
		if i == len(parts)-1 {
			cands = append(cands, p+".py", filepath.Join(p, "__main__.py"))
		}
		for _, c := range cands {
			r.add(c)
			if regularFile(c) {
				found = append(found, c)
			}
		}
	}
	return found
}

// npmRun pins package.json and follows the script `npm run NAME` (or
// `yarn NAME`, `pnpm NAME`) runs, with its pre and post scripts.
func (r *resolver) npmRun(args []string, dir string, depth int) {
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
	p, ok := r.inside(filepath.Join(dir, "package.json"), dir)
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
			r.command(cmd, dir, depth+1)
		}
	}
}

// makefile pins the Makefile make reads in dir and follows every recipe
// line in it (which target runs is not told apart) and every file it
// includes. A recipe whose program, or an include whose file, is a make
// variable cannot be told: the Makefile's folder is pinned instead.
func (r *resolver) makefile(dir string, depth int) {
	for _, name := range []string{"GNUmakefile", "makefile", "Makefile"} {
		p, ok := r.inside(filepath.Join(dir, name), dir)
		if !ok {
			continue
		}
		r.add(p)
		r.makeRules(p, dir, depth)
	}
}

// makeRules follows the recipes and includes of one makefile.
func (r *resolver) makeRules(p, dir string, depth int) {
	if r.followed[p] {
		return
	}
	r.followed[p] = true
	data, ok := r.readScript(p)
	if !ok {
		return
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.HasPrefix(line, "\t") {
			recipe := strings.TrimLeft(strings.TrimSpace(line), "@-+")
			if first, _, _ := strings.Cut(recipe, " "); strings.Contains(first, "$") {
				r.dynamic(p, "runs `"+recipe+"`, a program named by a make variable")
				continue
			}
			r.command(recipe, dir, depth+1)
			continue
		}
		trimmed := strings.TrimSpace(line)
		for _, kw := range []string{"include ", "-include ", "sinclude "} {
			rest, ok := strings.CutPrefix(trimmed, kw)
			if !ok {
				continue
			}
			if strings.Contains(rest, "$") {
				r.dynamic(p, "includes `"+rest+"`, a path named by a make variable")
				break
			}
			for _, f := range strings.Fields(rest) {
				if inc, ok := r.inside(f, dir); ok {
					r.add(inc)
					if regularFile(inc) {
						r.makeRules(inc, dir, depth)
					}
				}
			}
		}
	}
}

// envRunners run code they build or install from the workspace's own
// files (a Go module, uv.lock, poetry.lock, node_modules): what runs is
// not a file a command names.
var envRunners = map[string]bool{"uv": true, "uvx": true, "poetry": true, "pipenv": true, "pdm": true, "hatch": true,
	"rye": true, "conda": true, "pixi": true, "npx": true, "bunx": true, "bundle": true,
	"go": true, "cargo": true, "dotnet": true, "swift": true, "gradle": true, "gradlew": true}

// envRunner says that command runs base's environment, which is not
// pinned.
func (r *resolver) envRunner(command, base string) {
	r.note(RunNote{Unpinned: true, Message: "`" + command + "` runs " + base + ", which runs code it builds or installs from the workspace's own files (a module, a lock file, node_modules, a virtual environment): that code is not pinned"})
}

// runnerConfigFiles are the files a runner reads from its folder, or one
// above it, that may change what it runs: bunfig.toml's preload, deno's
// import map, ts-node's require, .npmrc's node-options, .yarnrc.yml's
// yarnPath.
var runnerConfigFiles = map[string][]string{
	"bun": {"bunfig.toml"}, "bunx": {"bunfig.toml"}, "deno": {"deno.json", "deno.jsonc"},
	"tsx": {"tsconfig.json"}, "ts-node": {"tsconfig.json"},
	"npm": {".npmrc"}, "npx": {".npmrc"}, "pnpm": {".npmrc"}, "yarn": {".npmrc", ".yarnrc", ".yarnrc.yml"},
}

// runnerConfigNames are the keys of those files that name code to run.
var runnerConfigNames = regexp.MustCompile(`(?i)preload|require|import|node-options|loader|yarnPath|plugins|tasks|\bpaths\b`)

// runnerConfigs pins the configuration files runner base reads, from dir
// up to the workspace root (absent ones as absent: one added is a
// change); one that names code to run pins its folder instead.
func (r *resolver) runnerConfigs(base, dir string) {
	names := runnerConfigFiles[base]
	if len(names) == 0 {
		return
	}
	for d := dir; r.inWorkspace(d); d = filepath.Dir(d) {
		for _, n := range names {
			p := filepath.Join(d, n)
			r.add(p)
			if data, ok := r.readScript(p); ok && runnerConfigNames.Match(data) {
				r.dynamic(p, "may name files "+base+" loads or runs first")
			}
		}
		if d == r.root {
			break
		}
	}
}

// regularFile reports a path that is a regular file now.
func regularFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
