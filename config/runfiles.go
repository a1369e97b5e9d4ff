package config

import (
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// RunFile is a file that a project hook runs or reads, as it is now.
// Trust pins these along with the hooks file: a pull request that edits
// only .cursor/hooks/check.sh must not run before someone reviews it.
type RunFile struct {
	// Path is absolute and clean, as the command names it from the hook's
	// working directory; symlinks are not resolved.
	Path string
	// Present reports that Path leads, through any symlinks, to a regular
	// file; SHA256 is then the hash of its content. A missing path, a
	// folder or a dangling symlink is not present.
	Present bool
	SHA256  [32]byte
	// Err says why a path that exists could not be hashed (permission
	// denied, say). A hook with such a file does not run: its content
	// cannot be checked against the pin.
	Err error
}

// RunFilePaths returns the paths inside root that a command run from dir
// names, whether or not a file is there now: a pinned file that is gone
// counts as changed, and a file that appears where a word pointed counts
// as added.
//
// The rule: every word of the command (split as commandWords describes,
// with each of rootVars, such as $CURSOR_PROJECT_DIR, expanded to root) is
// resolved against dir; the result counts when it lies inside root as
// written, or once symlinks are resolved. A path inside root that is a
// symlink to a file outside it still counts: the target's content is what
// runs, so that is what is pinned. A path outside root is the user's own
// (an interpreter, a tool in ~/bin) and is not pinned. So a script named
// by the command (.cursor/hooks/x.sh, ./hooks/x.sh, bun run
// .cursor/hooks/t.ts, python3 hooks/g.py), a policy of `agenthooks policy
// .cursor/policies/p.yaml` and a file given as an argument or redirected
// in (< rules.txt) are pinned; a data file a script reads without the
// command naming it is not. What interpreters resolve a word to is pinned
// too (runresolve.go): node's guard.js for `node guard`, python -m's
// module, npm scripts and Makefile recipes; and so is what each file that
// runs loads in turn (runfollow.go): a Node require, the modules on
// Python's sys.path, a shell script's sources and the scripts it runs, a
// Ruby require_relative, or the file's whole folder where that cannot be
// told.
func RunFilePaths(command, dir, root string, rootVars []string) []string {
	paths, _ := RunFileReport(command, dir, root, rootVars)
	return paths
}

// CommandFiles returns the paths inside root that the words of a command
// run from dir name themselves (globs and folders expanded), without what
// interpreters resolve them to or what those files load: what a command
// names, for a caller that wants its script (a team hook's one file).
func CommandFiles(command, dir, root string, rootVars []string) []string {
	if root == "" {
		return nil
	}
	r := newResolver(dir, root, rootVars)
	for _, w := range commandWords(command, r.root, rootVars) {
		if p, ok := r.inside(w, dir); ok {
			r.add(p)
		}
	}
	return r.paths
}

// maxFolderFiles and maxFolderBytes bound the files pinned for one
// folder (a folder a command names, or one pinned whole because what runs
// in it cannot be told): a hook that runs a package (python3 .cursor/guard)
// has a few; a tree past these is not worth hashing at every load, and
// the files past the bound are reported as not pinned (RunNote.Unpinned).
const (
	maxFolderFiles = 1000
	maxFolderBytes = 64 << 20
)

// expandRunPath is what a word naming p runs or reads: p itself; for a
// glob (.cursor/hooks/pre-*.sh), every path it matches inside root, so a
// file a pull request adds to the match counts as added; for a folder
// (python3 .cursor/guard), the files in it, so an edit to one counts as
// changed. A glob with no match stays as written: a file that appears
// there later counts as added too. full names a folder whose files past
// the bound are not pinned.
func expandRunPath(p, root string) (paths []string, full []string) {
	if alts := braces(p, 64); len(alts) > 1 {
		// bash's {a,b}: each alternative is a word of its own.
		for _, a := range alts {
			ps, fs := expandRunPath(a, root)
			paths, full = append(paths, ps...), append(full, fs...)
		}
		return paths, full
	}
	if strings.ContainsAny(p, "*?[") {
		matches, err := filepath.Glob(p)
		if err == nil && len(matches) > 0 {
			for _, m := range matches {
				if within(root, m) {
					ps, fs := expandRunPath(m, root)
					paths, full = append(paths, ps...), append(full, fs...)
				}
			}
			return paths, full
		}
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return []string{p}, nil
	}
	w := folderWalk{}
	w.walk(p, 0)
	if w.full {
		full = []string{p}
	}
	return w.files, full
}

// braces expands bash's brace alternatives in s (a{b,c}d: abd, acd), to at
// most limit words; s itself when it has none.
func braces(s string, limit int) []string {
	open := strings.IndexByte(s, '{')
	if open < 0 {
		return []string{s}
	}
	depth, commas := 0, []int{}
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth--; depth == 0 {
				if len(commas) == 0 {
					// {x} is no alternative: expand what follows it.
					var out []string
					for _, rest := range braces(s[i+1:], limit) {
						out = append(out, s[:i+1]+rest)
					}
					return out
				}
				var out []string
				start := open + 1
				for _, end := range append(commas, i) {
					for _, w := range braces(s[:open]+s[start:end]+s[i+1:], limit) {
						if len(out) < limit {
							out = append(out, w)
						}
					}
					start = end + 1
				}
				return out
			}
		}
	}
	return []string{s}
}

// folderWalk gathers the files below a folder, up to maxFolderFiles and
// maxFolderBytes; full reports that it stopped there.
type folderWalk struct {
	files []string
	bytes int64
	full  bool
}

// walk adds the files below dir, and goes into a linked folder as into
// its own (a package of code linked in runs as if it were there), to a
// few links deep. The link itself is listed too, so that pointing it
// elsewhere is a change. A __pycache__ folder is left out: Python writes
// it as it imports, so pinning it would stop the hook after its first run
// (docs/cli.md says what this leaves open); so is .git, which every git
// command writes and no hook runs.
func (w *folderWalk) walk(dir string, links int) {
	_ = filepath.WalkDir(dir, func(f string, d fs.DirEntry, err error) error {
		if err != nil {
			return filepath.SkipDir
		}
		if w.full {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if d.Name() == "__pycache__" || d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if len(w.files) >= maxFolderFiles {
			w.full = true
			return filepath.SkipAll
		}
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			if w.bytes += info.Size(); w.bytes > maxFolderBytes {
				w.full = true
				return filepath.SkipAll
			}
		}
		w.files = append(w.files, f)
		if d.Type()&fs.ModeSymlink != 0 && links < 4 {
			if fi, err := os.Stat(f); err == nil && fi.IsDir() {
				// The separator makes the walk follow the link itself.
				w.walk(f+string(filepath.Separator), links+1)
			}
		}
		return nil
	})
}

// RunFiles returns the files the hook runs or reads inside its workspace
// root (RunFilePaths of its command, from its working directory), each
// stat'ed and, when present, hashed. A prompt hook names no file.
func (h *Hook) RunFiles() []RunFile {
	if h.Type == TypePrompt {
		return nil
	}
	paths := RunFilePaths(h.Command, h.Dir, h.Root, h.ProjectDirVars())
	out := make([]RunFile, len(paths))
	for i, p := range paths {
		out[i] = readRunFile(p)
	}
	return out
}

// hashBuffers are the buffers readRunFile hashes through: a load hashes
// every file its hooks may run.
var hashBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// readRunFile stats and hashes one path. It stats before it opens, so a
// named pipe is never opened (that would block); the content is streamed,
// so a large file costs time but not memory.
func readRunFile(p string) RunFile {
	rf := RunFile{Path: p}
	info, err := os.Stat(p)
	if err != nil {
		if !missing(err) {
			rf.Err = err
		}
		return rf
	}
	if !info.Mode().IsRegular() {
		// A folder, a named pipe, a socket or a device where a hook
		// reaches (a link in a pinned folder to a package of code, say):
		// pinned by what it is and where a link leads, so that one added,
		// removed or pointed elsewhere is a change.
		target, _ := os.Readlink(p)
		rf.Present = true
		rf.SHA256 = sha256.Sum256([]byte("not a regular file: " + info.Mode().Type().String() + " " + target))
		return rf
	}
	f, err := os.Open(p)
	if err != nil {
		if !missing(err) {
			rf.Err = err
		}
		return rf
	}
	defer f.Close()
	info, err = f.Stat()
	if err != nil {
		rf.Err = fmt.Errorf("stat %s: %w", p, err)
		return rf
	}
	if !info.Mode().IsRegular() {
		return rf
	}
	h := sha256.New()
	buf := hashBuffers.Get().(*[]byte)
	defer hashBuffers.Put(buf)
	// Read alone, so that the buffer is used: *os.File's WriteTo would
	// allocate one of its own for every file.
	if _, err := io.CopyBuffer(h, struct{ io.Reader }{f}, *buf); err != nil {
		rf.Err = fmt.Errorf("read %s: %w", p, err)
		return rf
	}
	rf.Present = true
	h.Sum(rf.SHA256[:0])
	return rf
}

// within reports whether p lies strictly inside dir; both are clean and
// absolute.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == "." || filepath.IsAbs(rel) {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
