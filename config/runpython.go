package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// Python puts the script's folder (the working folder for -m, -c and
// standard input) first on sys.path, before the standard library and
// site-packages, unless -I or -P is given. Any module there whose name is
// imported, by the hook or by any module it imports in turn (the standard
// library's json imports re, codecs, …), runs in place of the real one:
// a json.py beside the hook runs. Reading the hook's imports cannot tell
// which names the standard library will import, so the folder's
// importable entries are pinned: every module file at its top, and every
// folder whose name can be imported (a package, or a namespace package's
// portion), whole.

// pyModuleExts are the suffixes of files Python imports from a folder.
var pyModuleExts = map[string]bool{".py": true, ".pyc": true, ".pyw": true, ".so": true, ".pyd": true}

// python pins what one python run loads from the workspace.
func (r *resolver) python(run scriptRun, dir string) {
	path := dir // sys.path[0]
	switch {
	case run.module != "":
		for _, c := range r.pythonModule(run.module, dir) {
			r.followPy(c)
		}
	case run.script != "":
		p, ok := r.inside(run.script, dir)
		if !ok {
			return
		}
		// A folder run as a script is itself first on sys.path, and runs
		// its __main__.py.
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			path = filepath.Dir(p)
		} else {
			path = p
			p = filepath.Join(p, "__main__.py")
		}
		if regularFile(p) {
			r.followPy(p)
		}
	case run.inline:
		r.note(RunNote{Message: "python runs code given on its command line or standard input, which is not read for what it imports beyond its folder " + dir})
	}
	if !run.isolated {
		r.pythonPath(path)
	}
}

// pythonPath pins what Python may import from folder dir, first on
// sys.path: every module file at its top (a file added there, json.py,
// is a change), and every folder whose name is an identifier, whole,
// with the Python files in them read as pyFile reads the script.
func (r *resolver) pythonPath(dir string) {
	if !r.inWorkspace(dir) || r.followed[dir+string(filepath.Separator)] {
		return
	}
	r.followed[dir+string(filepath.Separator)] = true
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			fi, err := os.Stat(p)
			isDir = err == nil && fi.IsDir()
		}
		switch {
		case isDir && pyIdentifier(e.Name()) && e.Name() != "__pycache__":
			before := len(r.paths)
			r.add(p)
			for _, f := range r.paths[before:] {
				if filepath.Ext(f) == ".py" {
					r.followPy(f)
				}
			}
		case !isDir && pyModuleExts[strings.ToLower(filepath.Ext(e.Name()))]:
			r.add(p)
			if filepath.Ext(p) == ".py" {
				r.followPy(p)
			}
		}
	}
}

// followPy reads a Python module pinned as part of a folder, once.
func (r *resolver) followPy(p string) {
	if r.first(p) {
		r.pyFile(p)
	}
}

// pyIdentifier reports a name Python can import.
func pyIdentifier(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// pyLoads are what lets Python code run files other than the modules its
// folder holds: the import machinery reached by name, sys.path edited,
// code compiled from a string, other programs started.
var pyLoads = regexp.MustCompile(`\b(__import__|importlib|imp|runpy|pkgutil|zipimport|execfile|ctypes|subprocess)\b|\b(site\.addsitedir|sys\.(path|meta_path|path_hooks)|os\.(system|popen|exec\w*|spawn\w*|posix_spawn\w*)|pty\.spawn)\b|(^|[^.\w])(exec|eval|compile)\s*\(`)

// pyFile reads a Python file for what it may run beyond the folders on
// sys.path that are pinned: where it reaches the import machinery by
// name, edits sys.path, compiles code from a string or starts a program,
// its folder is pinned whole and it says so.
func (r *resolver) pyFile(p string) {
	data, ok := r.readScript(p)
	if !ok {
		return
	}
	if m := pyLoads.Find(pyCode(data)); m != nil {
		r.dynamic(p, "uses "+pyName(m)+", which may load or run files not named in its imports")
	}
}

// pyCode is Python source with its comments blanked: a comment saying
// "we do not use subprocess" loads nothing. Strings are kept (a string
// may hold code that exec runs, and exec itself is what is found).
func pyCode(src []byte) []byte {
	out := make([]byte, len(src))
	copy(out, src)
	var quote byte
	triple := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote && (!triple || i+2 < len(out) && out[i+1] == quote && out[i+2] == quote) {
				if triple {
					i += 2
				}
				quote = 0
			} else if c == '\n' && !triple {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
			triple = i+2 < len(out) && out[i+1] == c && out[i+2] == c
			if triple {
				i += 2
			}
		case c == '#':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		}
	}
	return out
}

// pyName is the name a pyLoads match found, without what surrounds it.
func pyName(m []byte) string {
	s := strings.TrimRight(string(m), "( \t")
	return strings.TrimLeftFunc(s, func(c rune) bool { return !(c == '_' || unicode.IsLetter(c)) })
}
