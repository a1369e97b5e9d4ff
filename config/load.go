package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// maxFileSize bounds what is read from a hooks file. Real ones are a few
// kilobytes; a huge file is a mistake, and reading it whole would let it
// exhaust memory.
const maxFileSize = 16 << 20

// Set is everything Load found: the files, the hooks that may run in
// priority order, and every problem.
type Set struct {
	// Files lists every hooks file that exists, in priority order,
	// including untrusted and broken ones.
	Files []*File
	// Hooks are the hooks that may run: enterprise, team, project, user,
	// each file's in document order. Untrusted files contribute none.
	Hooks []*Hook
	// Problems are all files' problems, in the order of Files.
	Problems []Problem
	// Unloaded stand in for fail-closed hooks of files that could not be
	// (wholly) loaded (TypeUnloaded); they are not in Hooks.
	Unloaded []*Hook
	// Sources are the sources of the load, read or not
	// (NewSources(Locations.Settings)): what a stored session's source
	// names stand for, and the variables agents set for their hooks.
	Sources Sources

	watched []string
}

// Watched returns every path whose change should trigger a reload: each
// existing or possible hooks file, and its parent folders up to and
// including the first one that exists, so a watcher can see a file that
// does not exist yet being created. The team folder is included so a
// newly synced team appears.
func (s *Set) Watched() []string { return append([]string(nil), s.watched...) }

// Load finds, reads and validates every hooks file in loc. A missing file
// is no source; a broken one is reported in its File and Problems and the
// others still load.
//
// Project-level files are checked with trust (nil trusts nothing); an
// untrusted file is validated and listed, its hooks are kept out of
// Set.Hooks, and a warning says why (an error when the workspace was
// trusted and the file changed since). With a RunFileTrust, a hook of a
// trusted file also needs the workspace files it runs or reads
// (RunFilePaths) as pinned; a hook whose file changed is kept out, with
// an error naming the file, and the file's other hooks still run.
//
// A workspace root listed twice is loaded once, and a root whose hooks
// file is the user hooks file (the home folder opened as a workspace) is
// left to the user source: the same hooks must not run twice, and the
// user's own file needs no trust.
func Load(loc Locations, trust Trust) *Set {
	l := &loader{set: &Set{Sources: NewSources(loc.Settings)}, trust: trust, watched: map[string]bool{}}
	home := absPath(loc.Home)
	var roots []string
	seenRoot := map[string]bool{}
	for _, r := range loc.WorkspaceRoots {
		if r = absPath(r); r != "" && !seenRoot[r] {
			seenRoot[r] = true
			roots = append(roots, r)
		}
	}
	firstRoot := ""
	if len(roots) > 0 {
		firstRoot = roots[0]
	}

	ent := loc.EnterpriseFile
	if ent == "" {
		ent = defaultEnterpriseFile
	}
	ent = absPath(ent)
	l.load(ent, Enterprise, filepath.Dir(ent), firstRoot)

	if home != "" {
		l.loadTeams(home, firstRoot)
	}

	userFile := ""
	if home != "" {
		userFile = UserFile(home)
	}
	for _, r := range roots {
		if p := ProjectFile(r); p != userFile {
			l.load(p, Project, r, r)
		}
	}

	if home != "" {
		l.load(userFile, User, filepath.Join(home, ".cursor"), firstRoot)
	}

	// Other agents' settings files, in the order of their sources.
	for _, s := range l.set.Sources.Settings() {
		l.loadSettings(s, roots, home, firstRoot, loc.Getenv, loc.Skip)
	}
	return l.set
}

type loader struct {
	set     *Set
	trust   Trust
	watched map[string]bool
	// runFiles caches each run file's verdict for this load: several hooks
	// often run one script.
	runFiles map[runFileKey]runFileVerdict
}

// loadTeams loads each team's hooks, in team id order.
func (l *loader) loadTeams(home, firstRoot string) {
	dir := TeamDir(home)
	l.watch(dir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		if !missing(err) {
			l.set.Problems = append(l.set.Problems, Problem{
				File: dir, Severity: Error,
				Message: "cannot list team hooks: " + errText(err),
				Fix:     "make the folder readable by this user",
			})
		}
		return
	}
	for _, id := range teamIDs(entries) {
		hooksDir := TeamHooksDir(home, id)
		l.load(filepath.Join(hooksDir, "hooks.json"), Team, hooksDir, firstRoot)
	}
}

// load reads and parses one file, if it exists.
func (l *loader) load(path string, src Source, dir, root string) *File {
	l.watch(path)
	data, err := readFile(path)
	if missing(err) {
		return nil
	}
	var f *File
	if err != nil {
		f = &File{Path: path, Source: src, Dir: dir, Root: root, Version: 1,
			Problems: []Problem{readProblem(path, err)}}
		if src.ProjectLevel() {
			// An unreadable project file cannot be checked against its pin.
			f.TrustReason = "it cannot be read"
		} else {
			f.Trusted = true
		}
	} else {
		f = l.set.Sources.Parse(path, data, src, dir, root)
	}
	var stopped map[*Hook]bool
	if err == nil && src.ProjectLevel() {
		l.checkTrust(f, data)
		stopped = l.checkRunFiles(f)
	}
	l.set.Files = append(l.set.Files, f)
	l.set.Problems = append(l.set.Problems, f.Problems...)
	if f.Trusted {
		for _, h := range f.Hooks {
			if !stopped[h] {
				l.set.Hooks = append(l.set.Hooks, h)
			}
		}
	}
	l.set.Unloaded = append(l.set.Unloaded, unloaded(f, data, err != nil, stopped)...)
	return f
}

func (l *loader) checkTrust(f *File, data []byte) {
	if tf, ok := l.trust.(TrustFault); ok {
		if err := tf.Fault(); err != nil {
			l.unreadableTrust(f, err)
			return
		}
	}
	if l.trust == nil {
		f.Trusted, f.TrustReason = false, "no trust store is configured, so no project hooks are trusted"
	} else {
		f.Trusted, f.TrustReason = l.trust.Check(f.Root, f.Path, data)
	}
	if f.Trusted || len(f.Hooks) == 0 {
		return
	}
	reason := f.TrustReason
	if reason == "" {
		reason = "not trusted"
	}
	// In a workspace the user trusted, a changed file stops hooks they
	// chose to run: an error, so validate fails until it is reviewed.
	sev := Warning
	if rt, ok := l.trust.(RunFileTrust); ok && rt.Trusted(f.Root) {
		sev = Error
	}
	f.Problems = append(f.Problems, Problem{
		File: f.Path, Severity: sev,
		Message: fmt.Sprintf("%d project hook(s) skipped: %s", len(f.Hooks), reason),
		Fix:     "trust is pinned to the content of the files, so every edit needs a new review",
	})
}

// unreadableTrust skips a project file whose trust cannot be known, and
// keeps each of its fail-closed hooks as a failed stand-in (with its
// matcher), so that the step blocks rather than goes unchecked.
func (l *loader) unreadableTrust(f *File, err error) {
	f.Trusted = false
	f.TrustReason = "the trust store cannot be read (" + err.Error() + "), so no project hooks are trusted"
	if len(f.Hooks) == 0 {
		return
	}
	closed := 0
	for _, h := range f.Hooks {
		if !h.FailClosed {
			continue
		}
		closed++
		l.set.Unloaded = append(l.set.Unloaded, &Hook{Step: h.Step, Type: TypeUnloaded, FailClosed: true,
			Source: h.Source, File: h.File, Index: h.Index, Dir: h.Dir, Root: h.Root,
			Matcher: h.Matcher, Match: h.Match, Command: f.TrustReason})
	}
	f.Problems = append(f.Problems, Problem{
		File: f.Path, Severity: Error,
		Message: fmt.Sprintf("%d project hook(s) skipped, %d of them failClosed, which block their steps: %s", len(f.Hooks), closed, f.TrustReason),
		Fix:     "make the trust store's folder readable again (agenthooks trust --list shows it)",
	})
}

// watch records path and its missing parents up to the first existing one.
func (l *loader) watch(path string) {
	l.addWatch(path)
	l.watchParents(path)
}

// watchParents records the folder of path, and its missing parents up to
// the first existing one: what changes when a file appears at path.
func (l *loader) watchParents(path string) {
	for d := filepath.Dir(path); ; d = filepath.Dir(d) {
		l.addWatch(d)
		if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
			return
		}
	}
}

func (l *loader) addWatch(p string) {
	if !l.watched[p] {
		l.watched[p] = true
		l.set.watched = append(l.set.watched, p)
	}
}

var errIsDir = errors.New("it is a directory, not a file")

// readFile reads a hooks file, refusing directories and oversized files.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat %s: %w", path, err)
	}
	if info.IsDir() {
		return nil, errIsDir
	}
	data, err := readAll(io.LimitReader(f, maxFileSize+1), info.Size())
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("it is larger than %d MiB", maxFileSize>>20)
	}
	return data, nil
}

// readAll reads r to its end into a buffer of size bytes (the file's
// size, and one more to see the end) rather than ReadAll's doubling one;
// a file that grew meanwhile is still read whole.
func readAll(r io.Reader, size int64) ([]byte, error) {
	data := make([]byte, 0, min(max(size, 0), maxFileSize)+1)
	for {
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// missing reports whether err means there is no file: it does not exist,
// or a folder on its path is a file.
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

func readProblem(path string, err error) Problem {
	fix := "make it a readable file"
	switch {
	case errors.Is(err, errIsDir):
		fix = "remove or rename the folder; hooks.json must be a file"
	case errors.Is(err, fs.ErrPermission):
		fix = "make the file readable by the user running agenthooks"
	}
	return Problem{File: path, Severity: Error, Message: "cannot read the hooks file: " + errText(err), Fix: fix}
}

// errText is err without the path a *fs.PathError repeats.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
