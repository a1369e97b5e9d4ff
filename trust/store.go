// Package trust decides whether project-level hooks may run. A project's
// hooks come with the repository, so opening a repository would otherwise
// run whatever its last commit put in .cursor/hooks.json. Cursor trusts a
// folder; we pin trust to the content: the store keeps the SHA-256 of each
// project-level config file the user reviewed and of each workspace file
// its hooks run or read (config.RunFilePaths says which), and a file whose
// content changed since is not trusted until the user trusts the
// workspace again. A hooks file's hooks run only as reviewed: an edit to
// the script alone (.cursor/hooks/check.sh) stops the hooks that run it.
//
// The store is one JSON file, trust.json, in the config directory, so a
// user can read it and a sibling process sees every change. Writers take
// an exclusive lock, re-read the file and replace it atomically, so two
// processes trusting different workspaces at once both keep their change.
package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// FileName is the store's file inside its directory.
const FileName = "trust.json"

// formatVersion is the version of the file layout written.
const formatVersion = 1

// ErrNotTrusted is returned (wrapped) by Revoke for a workspace that was
// not trusted.
var ErrNotTrusted = errors.New("workspace is not trusted")

// Store is the trust store. Its methods are safe for concurrent use, and
// several processes may share its file.
type Store struct {
	dir  string
	path string

	mu    sync.RWMutex
	state *storeFile // as last read or written
}

// Workspace is a trusted workspace root and the files pinned for it.
type Workspace struct {
	Root    string
	Trusted time.Time
	Files   []PinnedFile // sorted by path
	// RunFiles reports that the pins include the files the hooks run or
	// read, not only the hooks files: false for a workspace trusted by an
	// agenthooks that pinned hooks files alone. Such a workspace's scripts
	// are unpinned, so their hooks stop until it is trusted again.
	RunFiles bool
}

// PinnedFile is one project-level config file, or a file its hooks run or
// read, and the hash of its content when the workspace was trusted.
type PinnedFile struct {
	Path   string
	SHA256 string // hex
}

// storeFile is the JSON layout of trust.json.
type storeFile struct {
	Version    int                     `json:"version"`
	Workspaces map[string]*workspaceOf `json:"workspaces"` // by normalized root
}

type workspaceOf struct {
	Trusted time.Time         `json:"trusted"`
	Files   map[string]string `json:"files"` // normalized path → sha256 hex
	// RunFiles is absent in entries written before the files hooks run
	// were pinned; see Workspace.RunFiles.
	RunFiles bool `json:"run_files,omitempty"`
}

// Open loads the store in dir. A missing file is an empty store; nothing
// is created until the first Trust.
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("trust store: no config directory (set AGENTHOOKS_CONFIG_DIR)")
	}
	s := &Store{dir: dir, path: filepath.Join(dir, FileName)}
	st, err := s.read()
	if err != nil {
		return nil, err
	}
	s.state = st
	return s, nil
}

// Path returns the store's file.
func (s *Store) Path() string { return s.path }

// read reads and validates the file; a missing file is an empty store.
func (s *Store) read() (*storeFile, error) {
	data, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return &storeFile{Version: formatVersion, Workspaces: map[string]*workspaceOf{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust store: %w", err)
	}
	var st storeFile
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, s.corrupt(err.Error())
	}
	if err := st.validate(); err != nil {
		return nil, s.corrupt(err.Error())
	}
	if st.Workspaces == nil {
		st.Workspaces = map[string]*workspaceOf{}
	}
	return &st, nil
}

func (s *Store) corrupt(detail string) error {
	return fmt.Errorf("trust store %s is not valid (%s): fix it, or delete it to forget every trusted workspace and trust them again with \"agenthooks trust <root>\"", s.path, detail)
}

func (st *storeFile) validate() error {
	switch {
	case st.Version > formatVersion:
		return fmt.Errorf("version %d was written by a newer agenthooks", st.Version)
	case st.Version != formatVersion:
		return fmt.Errorf("version is %d, want %d", st.Version, formatVersion)
	}
	for root, w := range st.Workspaces {
		if w == nil || !filepath.IsAbs(root) {
			return fmt.Errorf("workspace %q is not an absolute path with a record", root)
		}
		for path, sum := range w.Files {
			if !filepath.IsAbs(path) || !isSHA256(sum) {
				return fmt.Errorf("workspace %q: file %q must be an absolute path with a 64-digit hex sha256", root, path)
			}
		}
	}
	return nil
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Roots lists the trusted workspaces, sorted by root.
func (s *Store) Roots() []Workspace {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Workspace, 0, len(s.state.Workspaces))
	for root, w := range s.state.Workspaces {
		out = append(out, w.export(root))
	}
	slices.SortFunc(out, func(a, b Workspace) int { return strings.Compare(a.Root, b.Root) })
	return out
}

// Reload reads the store file again, so a long-lived host sees trust
// given or revoked by another process (`agenthooks trust`). On error the
// state read before is kept.
func (s *Store) Reload() error {
	st, err := s.read()
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.state = st
	s.mu.Unlock()
	return nil
}

// export is the public form of the record of root.
func (w *workspaceOf) export(root string) Workspace {
	ws := Workspace{Root: root, Trusted: w.Trusted, RunFiles: w.RunFiles}
	for path, sum := range w.Files {
		ws.Files = append(ws.Files, PinnedFile{Path: path, SHA256: sum})
	}
	slices.SortFunc(ws.Files, func(a, b PinnedFile) int { return strings.Compare(a.Path, b.Path) })
	return ws
}

// Lookup returns the record of workspace root, if it is trusted.
func (s *Store) Lookup(root string) (Workspace, bool) {
	r := resolve(root, "")
	s.mu.RLock()
	defer s.mu.RUnlock()
	w := s.state.Workspaces[r.key]
	if w == nil {
		return Workspace{}, false
	}
	return w.export(r.key), true
}

// Trusted reports whether workspace root is trusted, whatever its files
// hold now.
func (s *Store) Trusted(root string) bool {
	r := resolve(root, "")
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state.Workspaces[r.key] != nil
}

// Pinned reports whether file (relative to root when not absolute) was
// pinned when workspace root was trusted: a sandbox.json that was pinned
// and has changed or gone must stop commands, not be left out, since a
// command could otherwise loosen its own sandbox by editing it.
func (s *Store) Pinned(root, file string) bool {
	return s.lookup(root, file).found
}
