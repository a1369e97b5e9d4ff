package gitpush

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// The aliases configured for a repository are read by git itself, `git
// -C DIR config --list --show-origin -z` (git resolves includes,
// conditional includes, worktree configuration and the environment
// exactly as the command will), bounded by Timeout, and cached per
// directory. A cached answer is used while every file it depends on is
// unchanged: the system, global and XDG files, the files git named as
// origins, the targets of their includes, and the repository's .git,
// HEAD (for includeIf onbranch:), config and config.worktree, and the
// .git entries of the directories between DIR and the repository (a
// `git init` there changes the repository). Files modified within
// racyWindow of the read are not trusted (see Cache), and an answer is
// read again after aliasMaxAge whatever the files say.
//
// A failure to run git, a timeout or an unexpected exit means the
// aliases are unknown: the command that needed them is dynamic.

// Timeout bounds the runs of git one analysis makes (each run alone,
// and a caller's bound for all of them): a configuration git cannot read
// in a second makes the command dynamic, never a slow decision.
const Timeout = time.Second

const (
	aliasMaxAge = 10 * time.Second
	// gitOutputMax bounds what is read from git: a configuration larger
	// than this is not read (its aliases are unknown).
	gitOutputMax = 4 << 20
	// aliasCacheMax bounds the cache; it is cleared when full.
	aliasCacheMax = 128
)

// gitLocation is where a git command reads its configuration: its
// directory (after -C) and --git-dir, both absolute ("" gitDir when not
// given).
type gitLocation struct {
	dir, gitDir string
}

// aliasSet is the aliases one git command sees, by lower-cased name.
type aliasSet map[string]string

type aliasEntry struct {
	aliases aliasSet
	// pushConfig is set when the configuration maps a remote's pushes
	// (remote.<name>.push, remote.<name>.mirror).
	pushConfig bool
	env        string // the variables that select configuration, when read
	readAt     time.Time
	files      []fileStamp
}

// fileStamp is what a file looked like when an answer was read.
type fileStamp struct {
	path   string
	exists bool
	id     fileID
}

func stampOf(path string) fileStamp {
	id, ok := statID(path)
	return fileStamp{path: path, exists: ok, id: id}
}

// same reports whether the file is as stamped and was not modified too
// close to readAt to tell (see racyWindow).
func (s fileStamp) same(readAt time.Time) bool {
	id, ok := statID(s.path)
	if ok != s.exists {
		return false
	}
	if !ok {
		return true
	}
	return s.id.sameAs(id) && readAt.Sub(id.modTime()) > racyWindow
}

// racyWindow is how long after a file's modification time its mtime and
// size stop being proof that it is unchanged (file systems store times
// with a granularity); a file read within it is read again, as git does
// for "racily clean" files.
const racyWindow = 2 * time.Second

var aliasCache = struct {
	sync.Mutex
	m map[gitLocation]*aliasEntry
}{m: map[gitLocation]*aliasEntry{}}

// configured returns what the configuration for a command run at loc
// with environ (nil: this process's) says (aliases, push mappings), read
// once and cached; ok is false when it cannot be known. ctx is called
// only when git must run: a cached answer makes no context.
func configured(ctx func() context.Context, environ []string, loc gitLocation) (*aliasEntry, bool) {
	aliasCache.Lock()
	e := aliasCache.m[loc]
	aliasCache.Unlock()
	if e != nil && e.fresh(environ) {
		return e, true
	}
	e, err := readAliases(ctx(), environ, loc, gitEnvKey(environ))
	if err != nil {
		return nil, false
	}
	aliasCache.Lock()
	if len(aliasCache.m) >= aliasCacheMax {
		clear(aliasCache.m)
	}
	aliasCache.m[loc] = e
	aliasCache.Unlock()
	return e, true
}

func (e *aliasEntry) fresh(environ []string) bool {
	if time.Since(e.readAt) > aliasMaxAge || !sameGitEnv(environ, e.env) {
		return false
	}
	for _, f := range e.files {
		if !f.same(e.readAt) {
			return false
		}
	}
	return true
}

// gitEnvKey is environ's variables that select git's configuration
// (nil: this process's), sorted and joined by NULs.
func gitEnvKey(environ []string) string {
	var vars []string
	for _, kv := range settings.Environ(environ) {
		if gitEnvEntry(kv) {
			vars = append(vars, kv)
		}
	}
	slices.Sort(vars)
	return strings.Join(vars, "\x00")
}

func gitEnvEntry(kv string) bool {
	name, _, _ := strings.Cut(kv, "=")
	return gitEnvVar(name)
}

// sameGitEnv reports whether gitEnvKey(environ) is key, without building
// it: each decision on a repeated line asks. The entries are compared as
// multisets (an environment may repeat a variable).
func sameGitEnv(environ []string, key string) bool {
	environ = settings.Environ(environ)
	n := 0
	for _, kv := range environ {
		if !gitEnvEntry(kv) {
			continue
		}
		n++
		inEnv, inKey := 0, 0
		for _, other := range environ {
			if other == kv {
				inEnv++
			}
		}
		for k := range strings.SplitSeq(key, "\x00") {
			if k == kv {
				inKey++
			}
		}
		if inEnv != inKey {
			return false
		}
	}
	if key == "" {
		return n == 0
	}
	return n == strings.Count(key, "\x00")+1
}

// readAliases runs git for the configuration at loc and stamps the files
// it depends on. The stamps of the files known in advance are taken
// before git runs, so that a write racing with it shows as a change.
func readAliases(ctx context.Context, environ []string, loc gitLocation, env string) (*aliasEntry, error) {
	readAt := time.Now()
	e := &aliasEntry{env: env, readAt: readAt}
	top, gitDir := findRepo(loc)
	watched := map[string]bool{}
	watch := func(p string) {
		if p != "" && !watched[p] {
			watched[p] = true
			e.files = append(e.files, stampOf(p))
		}
	}
	getenv := settings.Getenv(settings.Environ(environ))
	for _, p := range standardConfigFiles(getenv) {
		watch(p)
	}
	for d := loc.dir; loc.gitDir == ""; d = filepath.Dir(d) {
		watch(filepath.Join(d, ".git"))
		if d == top || filepath.Dir(d) == d {
			break
		}
	}
	if gitDir != "" {
		for _, f := range []string{"HEAD", "config", "config.worktree", "commondir"} {
			watch(filepath.Join(gitDir, f))
		}
		if common, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
			c := strings.TrimSpace(string(common))
			if !filepath.IsAbs(c) {
				c = filepath.Join(gitDir, c)
			}
			watch(filepath.Join(c, "config"))
		}
	}
	args := []string{"-C", loc.dir}
	if loc.gitDir != "" {
		args = append(args, "--git-dir="+loc.gitDir)
	}
	out, err := runGit(ctx, environ, append(args, "config", "--list", "--show-origin", "-z")...)
	if err != nil {
		return nil, err
	}
	base := loc.dir
	if top != "" {
		base = top // git reads from the top level: relative origins start there
	}
	e.aliases = aliasSet{}
	for origin, rest := range configEntries(out) {
		key, value, _ := strings.Cut(rest, "\n")
		key = strings.ToLower(key)
		file, isFile := strings.CutPrefix(origin, "file:")
		if isFile {
			if !filepath.IsAbs(file) {
				watch(filepath.Join(loc.dir, file))
				file = filepath.Join(base, file)
			}
			watch(file)
		}
		switch {
		case strings.HasPrefix(key, "alias."):
			for _, n := range aliasNames(key[len("alias."):]) {
				e.aliases[n] = value // the last one wins, as for git
			}
		case strings.HasPrefix(key, "remote.") && (strings.HasSuffix(key, ".push") || strings.HasSuffix(key, ".mirror")):
			e.pushConfig = true
		case key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path"):
			watch(includeTarget(value, file, isFile, gitHome(getenv)))
		}
	}
	return e, nil
}

// configEntries yields the (origin, "key\nvalue") pairs of `git config
// --list --show-origin -z`.
func configEntries(out []byte) func(yield func(string, string) bool) {
	return func(yield func(string, string) bool) {
		fields := strings.Split(string(out), "\x00")
		for i := 0; i+1 < len(fields); i += 2 {
			if !yield(fields[i], fields[i+1]) {
				return
			}
		}
	}
}

// includeTarget resolves an include's path as git does: ~/ from the home
// directory, a relative path from the including file's directory.
func includeTarget(p, from string, fromFile bool, home string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home == "" {
			return ""
		}
		return filepath.Join(home, rest)
	}
	if filepath.IsAbs(p) {
		return p
	}
	if !fromFile {
		return ""
	}
	return filepath.Join(filepath.Dir(from), p)
}

// standardConfigFiles are the system, global and XDG configuration files,
// whether or not they exist: one created later changes the aliases.
func standardConfigFiles(getenv func(string) string) []string {
	var files []string
	if p := getenv(settings.GitConfigSystem); p != "" {
		files = append(files, p)
	} else {
		files = append(files, "/etc/gitconfig")
	}
	if p := getenv(settings.GitConfigGlobal); p != "" {
		return append(files, p)
	}
	home := gitHome(getenv)
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	if x := getenv(settings.XDGConfigHome); x != "" {
		files = append(files, filepath.Join(x, "git", "config"))
	} else if home != "" {
		files = append(files, filepath.Join(home, ".config", "git", "config"))
	}
	return files
}

// gitHome is the home folder git reads ~ and ~/.gitconfig from, as
// os.UserHomeDir finds it but in getenv's environment; "" when unset.
func gitHome(getenv func(string) string) string {
	if runtime.GOOS == "windows" {
		return getenv("USERPROFILE")
	}
	return getenv("HOME")
}

// findRepo finds the repository a command at loc works in, as git's
// discovery does: the top level (the directory holding .git, "" for a
// bare or given --git-dir) and the git directory ("" when none).
func findRepo(loc gitLocation) (top, gitDir string) {
	if loc.gitDir != "" {
		return "", loc.gitDir
	}
	for d := loc.dir; ; d = filepath.Dir(d) {
		dotGit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotGit); err == nil {
			if fi.IsDir() {
				return d, dotGit
			}
			// A worktree or submodule: .git holds "gitdir: PATH".
			b, err := os.ReadFile(dotGit)
			if err != nil {
				return d, ""
			}
			p := strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir:"))
			if !filepath.IsAbs(p) {
				p = filepath.Join(d, p)
			}
			return d, p
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}
