package trust

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agenthooks/agenthooks/internal/atomicfile"
)

// Trust pins files (path → content; a relative path is relative to root)
// for the workspace root and marks root trusted, even with no files. The
// pins replace the root's earlier ones: the files given are what the user
// reviewed, and a file pinned before but not given is no longer trusted.
//
// The files given must include those the hooks run or read
// (config.ProjectPins computes the whole set), or those hooks stop.
func (s *Store) Trust(root string, files map[string][]byte) error {
	sums := make(map[string][32]byte, len(files))
	for path, content := range files {
		sums[path] = sha256.Sum256(content)
	}
	return s.TrustSums(root, sums)
}

// TrustSums is Trust with each file's SHA-256 already computed, as
// config.ProjectPins returns them, so a large file a hook runs need not
// be held in memory.
func (s *Store) TrustSums(root string, sums map[string][32]byte) error {
	r := resolve(root, "")
	w := &workspaceOf{Trusted: time.Now().UTC().Truncate(time.Second), Files: map[string]string{}, RunFiles: true}
	for path, sum := range sums {
		w.Files[resolve(path, r.shown).key] = hex.EncodeToString(sum[:])
	}
	return s.update(func(st *storeFile) error {
		st.Workspaces[r.key] = w
		return nil
	})
}

// Repin moves the pin of file, a file of the trusted workspace root that
// agenthooks itself has just rewritten (install adding or removing its own
// entries in an agent's project settings), from before to after: nil
// before means the file was absent, nil after that it is gone. The pin
// moves only when it still holds what the user reviewed: before's hash,
// or for a file that was absent, no pin at all. A file edited since the
// trust keeps its old pin, and its hooks stay stopped until a review;
// repinned says which happened.
func (s *Store) Repin(root, file string, before, after []byte) (repinned bool, err error) {
	if p := s.lookup(root, file); p.w == nil || (before == nil) == p.found {
		return false, nil // nothing to move: no store write
	}
	r := resolve(root, "")
	key := resolve(file, r.shown).key
	err = s.update(func(st *storeFile) error {
		w := st.Workspaces[r.key]
		if w == nil {
			return nil
		}
		pinned, found := w.Files[key]
		switch {
		case before == nil && found, before != nil && (!found || pinned != hashOf(before)):
			return nil
		case after == nil:
			delete(w.Files, key)
		default:
			if w.Files == nil {
				w.Files = map[string]string{}
			}
			w.Files[key] = hashOf(after)
		}
		repinned = true
		return nil
	})
	return repinned, err
}

// Revoke forgets the workspace root and its pins. Revoking a workspace
// that is not trusted returns an error wrapping ErrNotTrusted, so the CLI
// can say so (or ignore it).
func (s *Store) Revoke(root string) error {
	r := resolve(root, "")
	return s.update(func(st *storeFile) error {
		if st.Workspaces[r.key] == nil {
			return fmt.Errorf("revoke %s: %w", r.shown, ErrNotTrusted)
		}
		delete(st.Workspaces, r.key)
		return nil
	})
}

// update applies change to the store under the file lock: it re-reads the
// file, so changes other processes made since Open are kept, then writes
// it back atomically and keeps the result as the in-memory state.
func (s *Store) update(change func(*storeFile) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("trust store: %w", err)
	}
	unlock, err := lock(filepath.Join(s.dir, FileName+".lock"))
	if err != nil {
		return fmt.Errorf("trust store: lock: %w", err)
	}
	defer unlock()

	st, err := s.read()
	if err != nil {
		return err
	}
	if err := change(st); err != nil {
		s.state = st // still fresher than what we had
		return err
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("trust store: %w", err)
	}
	if err := atomicfile.Write(s.path, append(data, '\n')); err != nil {
		return fmt.Errorf("trust store: %w", err)
	}
	s.state = st
	return nil
}
