package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

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
	p := s.lookup(root, file)
	r, f, w, pinned, found, cmd := p.root, p.file, p.w, p.sum, p.found, p.cmd
	legacy := p.legacy

	now := hex.EncodeToString(sum[:])
	switch {
	case w == nil:
		return false, fmt.Sprintf("workspace %s is not trusted: review %s, then run \"%s\"", r.shown, f.shown, cmd)
	case !present && !found:
		return true, ""
	case !present:
		return false, fmt.Sprintf("%s was removed since workspace %s was trusted (pinned sha256 %s…): review the hooks that run it, then run \"%s\"", f.shown, r.shown, pinned[:8], cmd)
	case !found && legacy:
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
	s.mu.RLock()
	defer s.mu.RUnlock()
	if p.w = s.state.Workspaces[r.key]; p.w != nil {
		p.sum, p.found = p.w.Files[p.file.key]
		p.legacy = !p.w.RunFiles
	}
	return p
}
