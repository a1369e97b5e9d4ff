package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// Check reports whether file, a project-level config file of the
// workspace root with this content, may run its hooks; if not, reason
// says why and what to do. It reads no store file: it answers from the
// state loaded by Open or written by the last Trust or Revoke. A relative
// file is taken relative to root.
func (s *Store) Check(root, file string, content []byte) (ok bool, reason string) {
	p := s.lookup(root, file)
	r, f, w, pinned, found, cmd := p.root, p.file, p.w, p.sum, p.found, p.cmd
	now := hashOf(content)
	switch {
	case w == nil:
		return false, fmt.Sprintf("workspace %s is not trusted: review %s, then run \"%s\"", r.shown, f.shown, cmd)
	case !found:
		return false, fmt.Sprintf("%s was not present when workspace %s was trusted: review it, then run \"%s\"", f.shown, r.shown, cmd)
	case pinned != now:
		return false, fmt.Sprintf("%s changed since it was trusted (pinned sha256 %s…, now %s…): review it, then run \"%s\"", f.shown, pinned[:8], now[:8], cmd)
	}
	return true, ""
}

func hashOf(content []byte) string {
	sum := sha256.Sum256(content)
	return hex.EncodeToString(sum[:])
}

// CheckRunFile reports whether file, which a hook of the trusted
// workspace root runs or reads, is as it was when root was trusted:
// present with the SHA-256 sum, or absent. A file neither pinned nor
// present is fine (the word that named it names nothing); a pinned file
// that is gone counts as changed, and so does a present file that is not
// pinned (added since, or the workspace was trusted by an agenthooks that
// pinned hooks files alone). A relative file is taken relative to root.
// It implements config.RunFileTrust.
func (s *Store) CheckRunFile(root, file string, present bool, sum [32]byte) (ok bool, reason string) {
	return s.RunFileChecker(root)(file, present, sum)
}

// RunFileChecker returns CheckRunFile for the files of one workspace
// root, to be used for one load and dropped: the root is resolved once,
// and the folder of each file once, where CheckRunFile resolves every
// component of both for every file. A load checks every file each hook
// may run (candidates Node would try, a script's folder), most of them in
// a few folders. It implements config's runFileChecker.
func (s *Store) RunFileChecker(root string) func(file string, present bool, sum [32]byte) (ok bool, reason string) {
	r := resolve(root, "")
	cmd := shellquote.Command([]string{"agenthooks", "trust", r.shown})
	folders := map[string]string{} // folder → its key
	return func(file string, present bool, sum [32]byte) (bool, string) {
		p := pinOf{root: r, file: resolveIn(file, r.shown, folders), cmd: cmd}
		s.pinned(&p)
		return p.runFileVerdict(present, sum)
	}
}

// resolveIn is resolve(p, base), with the keys of the folders resolved
// before in folders: a path that is no symlink itself (or does not exist)
// has its folder's key joined with its name, as evalExisting would find.
func resolveIn(p, base string, folders map[string]string) resolved {
	if base != "" && !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	shown, err := filepath.Abs(p)
	if err != nil {
		shown = filepath.Clean(p)
	}
	fi, err := os.Lstat(shown)
	// On Windows, resolving also spells each name as the disk does
	// (case, short names): only the whole resolution gives that.
	if runtime.GOOS == "windows" || err == nil && fi.Mode()&os.ModeSymlink != 0 || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return resolved{key: evalExisting(shown), shown: shown}
	}
	dir := filepath.Dir(shown)
	if dir == shown {
		return resolved{key: evalExisting(shown), shown: shown}
	}
	return resolved{key: filepath.Join(folderKey(dir, folders), filepath.Base(shown)), shown: shown}
}

// folderKey is evalExisting(dir), from the key of its parent where dir
// is no symlink itself (or does not exist), each folder resolved once.
func folderKey(dir string, folders map[string]string) string {
	if key, ok := folders[dir]; ok {
		return key
	}
	key := ""
	parent := filepath.Dir(dir)
	fi, err := os.Lstat(dir)
	if parent == dir || err == nil && fi.Mode()&os.ModeSymlink != 0 || err != nil && !errors.Is(err, fs.ErrNotExist) {
		key = evalExisting(dir)
	} else {
		key = filepath.Join(folderKey(parent, folders), filepath.Base(dir))
	}
	folders[dir] = key
	return key
}

// runFileVerdict is CheckRunFile's answer for the pin p of a file now
// present with sum, or absent.
func (p pinOf) runFileVerdict(present bool, sum [32]byte) (ok bool, reason string) {
	r, f, w, pinned, found, cmd := p.root, p.file, p.w, p.sum, p.found, p.cmd
	now := hex.EncodeToString(sum[:])
	switch {
	case w == nil:
		return false, fmt.Sprintf("workspace %s is not trusted: review %s, then run \"%s\"", r.shown, f.shown, cmd)
	case !present && !found:
		return true, ""
	case !present:
		return false, fmt.Sprintf("%s was removed since workspace %s was trusted (pinned sha256 %s…): review the hooks that run it, then run \"%s\"", f.shown, r.shown, pinned[:8], cmd)
	case !found && p.legacy:
		return false, fmt.Sprintf("%s is run by a hook but not pinned: workspace %s was trusted when trust covered only the hooks files: review it, then run \"%s\"", f.shown, r.shown, cmd)
	case !found:
		return false, fmt.Sprintf("%s was added since workspace %s was trusted: review it, then run \"%s\"", f.shown, r.shown, cmd)
	case pinned != now:
		return false, fmt.Sprintf("%s changed since workspace %s was trusted (pinned sha256 %s…, now %s…): review it, then run \"%s\"", f.shown, r.shown, pinned[:8], now[:8], cmd)
	}
	return true, ""
}

// pinOf is what the store holds for one file of a workspace.
type pinOf struct {
	root, file resolved
	w          *workspaceOf // nil: the workspace is not trusted
	sum        string
	found      bool
	legacy     bool   // trusted when trust pinned hooks files alone
	cmd        string // the command that trusts the workspace again
}

// lookup reads the pin of file (relative to root when not absolute).
func (s *Store) lookup(root, file string) pinOf {
	r := resolve(root, "")
	p := pinOf{root: r, file: resolve(file, r.shown), cmd: shellquote.Command([]string{"agenthooks", "trust", r.shown})}
	s.pinned(&p)
	return p
}

// pinned fills in what the store holds for p's root and file.
func (s *Store) pinned(p *pinOf) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if p.w = s.state.Workspaces[p.root.key]; p.w != nil {
		p.sum, p.found = p.w.Files[p.file.key]
		p.legacy = !p.w.RunFiles
	}
}
