package teamsync

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/team"
)

// maxStateBytes bounds sync.json; it is a few hundred bytes.
const maxStateBytes = 1 << 20

// State is what the last sync of a team recorded in team_<id>/sync.json.
type State struct {
	Server   string `json:"server"`
	TokenID  string `json:"token_id"`
	TeamID   int64  `json:"team_id"`
	TeamName string `json:"team_name,omitempty"`
	// Revision is the team's revision the hooks folder holds; 0 before
	// the first set is in place.
	Revision    int64     `json:"revision"`
	Accepted    bool      `json:"accepted"`
	AcceptedAt  time.Time `json:"accepted_at,omitzero"`
	LastSuccess time.Time `json:"last_success,omitzero"`
	// Files are the SHA-256 digests of the synced files, by name, so a
	// sync can tell that the folder still holds what it wrote (and
	// repair it when it does not).
	Files map[string]string `json:"files,omitempty"`
	// AuditOn is set while the team's audit is on; AuditSeq is then the
	// last record of the local log the audit has seen (sent, or passed
	// over as not one of the team's decisions).
	AuditOn  bool  `json:"audit_on,omitempty"`
	AuditSeq int64 `json:"audit_seq,omitempty"`
}

// LastSynced returns the state of the team this client's server and token
// last synced, if any: what the hooks folder holds while a sync fails.
func (c *Client) LastSynced() (*State, error) {
	managed, err := c.openManaged(false)
	if errors.Is(err, errNoFolder) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer managed.Close()
	return c.findState(managed)
}

// findState looks through the team folders for the state this server and
// token wrote, the most recent one when several match. It reads nothing
// through links.
func (c *Client) findState(managed *os.Root) (*State, error) {
	entries, err := fs.ReadDir(managed.FS(), ".")
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", managed.Name(), err)
	}
	var best *State
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "team_") {
			continue // links and files are not team folders of ours
		}
		st, err := readState(managed, e.Name())
		if err != nil || st == nil || st.Server != c.server || st.TokenID != c.tokenID {
			continue
		}
		if e.Name() != "team_"+teamFolderID(st.TeamID) {
			continue
		}
		if best == nil || st.LastSuccess.After(best.LastSuccess) {
			best = st
		}
	}
	return best, nil
}

// readState reads folder/sync.json under managed; nil when there is none.
func readState(managed *os.Root, folder string) (*State, error) {
	name := filepath.Join(folder, stateName)
	fi, err := managed.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", filepath.Join(managed.Name(), name))
	}
	f, err := managed.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxStateBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.Name(), err)
	}
	if len(data) > maxStateBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", f.Name(), maxStateBytes)
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: %w (remove the file; the next sync rewrites the folder)", f.Name(), err)
	}
	return &st, nil
}

// writeState replaces sync.json atomically: a reader sees the old state
// or the new one.
func writeState(folder *os.Root, st *State) error {
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", stateName, err)
	}
	tmp := tempPrefix + randomSuffix()
	if err := writeFile(folder, tmp, append(data, '\n'), 0o600); err != nil {
		folder.Remove(tmp)
		return err
	}
	if err := folder.Rename(tmp, stateName); err != nil {
		folder.Remove(tmp)
		return fmt.Errorf("replace %s: %w", filepath.Join(folder.Name(), stateName), err)
	}
	return nil
}

// writeFile creates name (which must not exist: a link planted there is
// not followed), writes data, sets the mode exactly (the umask does not
// apply) and flushes it to disk.
func writeFile(root *os.Root, name string, data []byte, mode os.FileMode) error {
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return fmt.Errorf("create %s: %w", filepath.Join(root.Name(), name), err)
	}
	_, err = f.Write(data)
	if err == nil && runtime.GOOS != "windows" {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", filepath.Join(root.Name(), name), err)
	}
	return nil
}

// verify reports whether the team folder's hooks folder holds exactly the
// files st recorded: plain files (no links), the right content, scripts
// executable. Anything else means the folder must be rewritten.
func verify(folder *os.Root, st *State) error {
	if len(st.Files) == 0 {
		return errors.New("nothing was synced yet")
	}
	fi, err := folder.Lstat(liveName)
	if err != nil {
		return err
	}
	if fi.Mode().Type() != fs.ModeDir {
		return fmt.Errorf("%s is not a plain folder", liveName)
	}
	for name, want := range st.Files {
		rel := filepath.Join(liveName, name)
		fi, err := folder.Lstat(rel)
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", rel)
		}
		if runtime.GOOS != "windows" && name != team.ManifestName && fi.Mode().Perm()&0o100 == 0 {
			return fmt.Errorf("%s is not executable", rel)
		}
		got, err := fileDigest(folder, rel)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s was changed since it was synced", rel)
		}
	}
	return nil
}

// fileDigest is the SHA-256 of a file under root, hex.
func fileDigest(root *os.Root, name string) (string, error) {
	f, err := root.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sameDigests reports whether two sets have the same files and contents.
func sameDigests(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TeamState is one team folder's sync state, for reports.
type TeamState struct {
	// Folder is the team folder (…/managed/team_<id>).
	Folder string
	State  *State
	// Err: the folder's sync.json could not be read.
	Err error
}

// States reads the sync state of every team folder under home's managed
// folder (a team whose folder has no sync.json is listed with a nil
// State: its hooks were put there by hand or by another tool). It reads
// nothing through links.
func States(home string) ([]TeamState, error) {
	dir := config.TeamDir(home)
	managed, err := os.OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	defer managed.Close()
	entries, err := fs.ReadDir(managed.FS(), ".")
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []TeamState
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "team_") {
			continue
		}
		st, err := readState(managed, e.Name())
		out = append(out, TeamState{Folder: filepath.Join(dir, e.Name()), State: st, Err: err})
	}
	return out, nil
}
