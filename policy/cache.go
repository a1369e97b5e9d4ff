package policy

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Cache keeps compiled policies by absolute path. A lookup stats the file
// (about a microsecond) and reuses the compiled policy while it is the
// same file with the same modification time and size; otherwise (and
// during the racy window after a write, see racyWindow) the file is read
// and hashed, and recompiled only when its content did change (a `touch`
// or a checkout of the same content costs a hash, not a compile).
// A compile error is cached the same way, so a broken file is not
// recompiled for every decision. Files with the same content share one
// compilation whatever their paths (a policy copied into several
// workspaces, or a team's copy of the project's), each with its own path
// in File. The zero Cache is ready to use.
type Cache struct {
	mu      sync.Mutex
	entries map[string]*cacheEntry
	// byContent keeps compiled policies by the hash of their file,
	// bounded by maxByContent. Errors are not kept: they name the file.
	byContent map[[sha256.Size]byte]*Policy
}

// maxByContent bounds Cache.byContent: a resident process may see any
// number of versions of its policies over its life; a configuration
// names a few.
const maxByContent = 64

type cacheEntry struct {
	mu   sync.Mutex // serialises refreshes of this file
	snap atomic.Pointer[snapshot]
}

// snapshot is one compiled version of a file.
type snapshot struct {
	info   os.FileInfo // as stat said before the read
	readAt time.Time
	sum    [sha256.Size]byte
	policy *Policy
	err    error
}

// racyWindow is how long after a file's modification time its mtime and
// size stop being proof that it is unchanged: file systems store times
// with a granularity (a clock tick; two seconds on FAT), and a second
// write of the same size within the same tick leaves both as they were.
// A snapshot read within the window after the file's mtime is checked by
// content (read and hash) until the window has passed, as git does for
// "racily clean" files.
const racyWindow = 2 * time.Second

// fresh reports whether fi proves the snapshot still matches the file:
// same file (an editor's rename-over gives a new one), same mtime and
// size, and read long enough after that mtime.
func (s *snapshot) fresh(fi os.FileInfo) bool {
	return s != nil && os.SameFile(s.info, fi) && s.info.ModTime().Equal(fi.ModTime()) &&
		s.info.Size() == fi.Size() && s.readAt.Sub(fi.ModTime()) > racyWindow
}

// defaultCache is what a Runner without its own Cache uses: one per
// process.
var defaultCache = &Cache{}

// Get returns the compiled policy at path (made absolute first). The
// error is the file's compile or read error.
func (c *Cache) Get(path string) (*Policy, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, Errors{{File: path, Message: err.Error()}}
	}
	e := c.entry(abs)
	if fi, err := os.Stat(abs); err == nil {
		if s := e.snap.Load(); s.fresh(fi) {
			return s.policy, s.err
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.refresh(c, abs)
}

func (c *Cache) entry(abs string) *cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[string]*cacheEntry{}
	}
	e := c.entries[abs]
	if e == nil {
		e = &cacheEntry{}
		c.entries[abs] = e
	}
	return e
}

// refresh reads the file again and recompiles it if its content changed.
// The stat comes before the read: a write racing with it leaves a stale
// mtime in the snapshot, so the next lookup reads the file again.
func (e *cacheEntry) refresh(c *Cache, abs string) (*Policy, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		e.snap.Store(nil)
		return nil, Errors{{File: abs, Message: "cannot read: " + unwrapPathErr(err), Fix: "check the path (relative paths start at the hook's folder)"}}
	}
	prev := e.snap.Load()
	if prev.fresh(fi) {
		return prev.policy, prev.err // another caller refreshed it meanwhile
	}
	readAt := time.Now()
	src, err := os.ReadFile(abs)
	if err != nil {
		e.snap.Store(nil)
		return nil, Errors{{File: abs, Message: "cannot read: " + unwrapPathErr(err)}}
	}
	s := &snapshot{info: fi, readAt: readAt, sum: sha256.Sum256(src)}
	switch shared := c.compiled(s.sum); {
	case prev != nil && prev.sum == s.sum:
		s.policy, s.err = prev.policy, prev.err
	case shared != nil:
		s.policy = shared.at(abs)
	default:
		s.policy, s.err = Compile(abs, src)
		if s.err == nil {
			c.keep(s.sum, s.policy)
		}
	}
	e.snap.Store(s)
	return s.policy, s.err
}

// compiled returns the policy compiled from content with this hash, if
// one is kept.
func (c *Cache) compiled(sum [sha256.Size]byte) *Policy {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byContent[sum]
}

// keep remembers a compiled policy by the hash of its content, starting
// over when the table is full.
func (c *Cache) keep(sum [sha256.Size]byte, p *Policy) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byContent == nil || len(c.byContent) >= maxByContent {
		c.byContent = map[[sha256.Size]byte]*Policy{}
	}
	c.byContent[sum] = p
}
