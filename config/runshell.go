package config

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// shellScript pins what a shell script runs from the workspace, as
// policy/shellscan reads it: the files it sources (`source f`, `. f`),
// the workspace programs it runs (./x.sh, .cursor/hooks/y), the scripts it
// hands to an interpreter (python3 x.py, node lib/z), and npm and make
// runs; each followed in turn. Paths resolve from the hook's folder and
// from the script's own (a script often cd's there first). A program, a
// sourced file or a folder it runs in that is known only at run time
// (`. "$(dirname "$0")/lib.sh"`, `$TOOL`, `cd "$x"`) pins the script's
// whole folder instead, and says so. The script's data files (what it
// reads or writes) are not pinned: only what it runs.
func (r *resolver) shellScript(p string, depth int) {
	cmds, ok := r.shellCommands(p)
	if !ok {
		return
	}
	scriptDir := filepath.Dir(p)
	// The reading forgets the folder after a source (the sourced file may
	// cd) and in a function; where neither the script nor what it sources
	// changes folder at all, it is still the one the script started in.
	stays := !r.changesFolder(cmds, scriptDir, true)
	sources := map[string]bool{} // the text of each source, which is read below
	for _, c := range cmds {
		if c.Name == "source" || c.Name == "." {
			sources[c.Text] = true
		}
	}
	for _, c := range cmds {
		text := strings.TrimSpace(c.Text)
		if c.Dynamic && sources[c.Text] {
			continue // the source of a dynamic path, said once as such
		}
		if c.Dynamic {
			r.dynamic(p, "runs `"+text+"`, code or a program known only when it runs")
			continue
		}
		bases := r.shellBases(c.Cwd, scriptDir)
		if bases == nil && stays {
			bases = r.shellBases(".", scriptDir)
		}
		switch {
		case c.Name == "source" || c.Name == ".":
			if len(c.Args) == 0 {
				continue
			}
			if slices.Contains(c.DynamicArgs, 0) || bases == nil && !filepath.IsAbs(c.Args[0]) {
				r.dynamic(p, "sources "+text+", a path known only when it runs")
				continue
			}
			for _, b := range bases {
				r.runPath(c.Args[0], b, langShell, depth)
			}
		case strings.ContainsAny(c.Path, `/\`):
			if bases == nil && !filepath.IsAbs(c.Path) {
				r.dynamic(p, "runs `"+text+"` from a folder known only when it runs")
				continue
			}
			for _, b := range bases {
				r.runPath(c.Path, b, "", depth)
			}
		default:
			r.shellProgram(p, c, bases, depth)
		}
	}
}

// shellCommands reads a shell script's commands, once per resolver.
func (r *resolver) shellCommands(p string) ([]shellscan.Command, bool) {
	if cmds, ok := r.scripts[p]; ok {
		return cmds, cmds != nil
	}
	data, ok := r.readScript(p)
	var cmds []shellscan.Command
	if ok {
		cmds = shellscan.Commands(string(data))
		if cmds == nil {
			cmds = []shellscan.Command{}
		}
	}
	if r.scripts == nil {
		r.scripts = map[string][]shellscan.Command{}
	}
	r.scripts[p] = cmds
	return cmds, cmds != nil
}

// changesFolder reports whether commands (and, with sources, the
// workspace files they source by a literal path) may change the shell's
// folder: a cd, pushd or popd, or a source of a path known only when it
// runs.
func (r *resolver) changesFolder(cmds []shellscan.Command, scriptDir string, sources bool) bool {
	for _, c := range cmds {
		switch c.Name {
		case "cd", "pushd", "popd":
			return true
		case "source", ".":
			if len(c.Args) == 0 {
				continue
			}
			if slices.Contains(c.DynamicArgs, 0) || !sources {
				return true
			}
			for _, b := range []string{r.dir, scriptDir} {
				q, ok := r.inside(c.Args[0], b)
				if !ok || !regularFile(q) {
					continue
				}
				if cmds, ok := r.shellCommands(q); ok && r.changesFolder(cmds, scriptDir, false) {
					return true
				}
			}
		}
	}
	return false
}

// movedCommands follows what the commands of a hook's command line run
// after a cd to a known folder (`cd .cursor/hooks && node guard.js`):
// their words are pinned from the hook's folder, as every word is, but
// what they run resolves from the folder cd went to.
func (r *resolver) movedCommands(command, dir string, depth int) {
	if !strings.Contains(command, "cd") {
		return
	}
	for _, c := range shellscan.Commands(command) {
		if c.Dynamic || len(c.DynamicArgs) > 0 || c.Cwd == "" || c.Cwd == "." {
			continue // as the words of the line were read, nothing more to tell
		}
		base := c.Cwd
		if !filepath.IsAbs(base) {
			base = filepath.Join(dir, base)
		}
		if !r.inWorkspace(base) {
			continue
		}
		switch {
		case c.Name == "source" || c.Name == ".":
			if len(c.Args) > 0 && !slices.Contains(c.DynamicArgs, 0) {
				r.runPath(c.Args[0], base, langShell, depth)
			}
		case strings.ContainsAny(c.Path, `/\`):
			r.runPath(c.Path, base, "", depth)
		default:
			r.shellProgram(filepath.Join(base, c.Name), c, []string{base}, depth)
		}
	}
}

// shellProgram follows a program a script runs by name: an interpreter's
// script, npm and make.
func (r *resolver) shellProgram(p string, c shellscan.Command, bases []string, depth int) {
	base := programBase(c.Name)
	for _, b := range bases {
		r.runnerConfigs(base, b)
	}
	if envRunners[base] {
		r.envRunner(strings.TrimSpace(c.Text), base)
	}
	lang := interpreterLang(base)
	runs := lang != "" || base == "npm" || base == "pnpm" || base == "yarn" || base == "make" || base == "gmake"
	if !runs {
		return
	}
	if bases == nil || len(c.DynamicArgs) > 0 {
		r.dynamic(p, "runs `"+strings.TrimSpace(c.Text)+"`, whose script or folder is known only when it runs")
		return
	}
	for _, b := range bases {
		switch {
		case base == "npm" || base == "pnpm" || base == "yarn" || base == "bun":
			r.npmRun(c.Args, b, depth+1)
		case base == "make" || base == "gmake":
			r.makefile(b, depth+1)
		}
		if lang == "" {
			continue
		}
		run := interpreterRun(lang, c.Args)
		switch {
		case lang == langPython:
			r.python(run, b)
		case run.script != "":
			r.runPath(run.script, b, lang, depth)
		case run.inline && lang != langShell:
			r.dynamic(p, "runs "+base+" code given on its command line or standard input, which is not read for the files it loads")
		}
	}
}

// shellBases are the folders a script's relative path may resolve from:
// the hook's and the script's, moved by the command's cd; nil when a cd
// went somewhere known only at run time.
func (r *resolver) shellBases(cwd, scriptDir string) []string {
	switch {
	case cwd == "":
		return nil
	case filepath.IsAbs(cwd):
		return []string{filepath.Clean(cwd)}
	}
	a, b := filepath.Join(r.dir, cwd), filepath.Join(scriptDir, cwd)
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// runPath pins the workspace file a word names from dir and follows it in
// lang (by its own extension or #! line when lang is "").
func (r *resolver) runPath(word, dir, lang string, depth int) {
	q, ok := r.inside(word, dir)
	if !ok {
		return
	}
	r.add(q)
	if isNodeLang(lang) && filepath.Ext(q) == "" && !regularFile(q) {
		for _, c := range r.nodeModule(q) {
			r.follow(c, lang, depth)
		}
		return
	}
	if !regularFile(q) {
		return
	}
	if lang == "" {
		lang = fileLang(q)
	}
	if lang != "" {
		r.follow(q, lang, depth)
	}
}
