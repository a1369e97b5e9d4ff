package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/config"
)

// maxFileSize bounds a sandbox.json read: a real one is a few hundred bytes.
const maxFileSize = 1 << 20

// Loaded is every sandbox file found for a workspace, and their merge.
type Loaded struct {
	Policy Policy
	// Files are the files found, lowest layer first, including the ones
	// left out (untrusted, or with errors).
	Files []*File
	// Problems are every file's problems, and why a project file was left
	// out.
	Problems []config.Problem
}

// Err says the sandbox cannot be built: a file that counts (a managed,
// user or trusted project file) has an error. Dropping such a file, or the
// broken rule, could loosen the sandbox its author meant, so a command is
// refused until it is fixed.
func (l *Loaded) Err() error {
	for _, f := range l.Files {
		if !f.Trusted || !f.HasErrors() {
			continue
		}
		for _, p := range f.Problems {
			if p.Severity == config.Error {
				if strings.Contains(p.Fix, "agenthooks trust") {
					// A file changed or removed since trust: its fix,
					// which the problem names, is the trust.
					return errors.New(p.Error())
				}
				return fmt.Errorf("%s (the sandbox is not built while a sandbox file has errors: fix it, then run agenthooks validate)", p.Error())
			}
		}
	}
	return nil
}

// Load reads the sandbox files beside every hooks source of loc (the
// enterprise folder, each team's hooks folder, ~/.cursor, each root's
// .cursor) and merges them. A project file counts only when trust vouches
// for it, as its hooks do.
func Load(loc config.Locations, trust config.Trust) *Loaded {
	l := &Loaded{}
	home := loc.Home
	var roots []string
	for _, r := range loc.WorkspaceRoots {
		if a, err := filepath.Abs(r); err == nil {
			roots = append(roots, filepath.Clean(a))
		}
	}
	if home != "" {
		l.read(config.SandboxFileBeside(config.UserFile(home)), User, "")
	}
	// The first root has the highest priority, as with hooks: it is read
	// last, so its settings win.
	for i := len(roots) - 1; i >= 0; i-- {
		path := config.SandboxFileBeside(config.ProjectFile(roots[i]))
		if f, data := l.read(path, Project, roots[i]); f != nil {
			l.checkTrust(f, data, trust)
		} else {
			l.checkRemoved(path, roots[i], trust)
		}
	}
	if home != "" {
		ids, err := config.TeamIDs(home)
		if err != nil {
			l.Problems = append(l.Problems, config.Problem{File: config.TeamDir(home), Severity: config.Error,
				Message: "cannot list the team folders: " + err.Error(), Fix: "make the folder readable by this user"})
			// A team's sandbox may be there: refuse rather than guess.
			l.Files = append(l.Files, &File{Path: config.TeamDir(home), Layer: Team, Trusted: true, Problems: l.Problems[len(l.Problems)-1:]})
		}
		for _, id := range ids {
			l.read(filepath.Join(config.TeamHooksDir(home, id), config.SandboxName), Team, "")
		}
	}
	ent := loc.EnterpriseFile
	if ent == "" {
		ent = config.DefaultEnterpriseFile()
	}
	l.read(config.SandboxFileBeside(ent), Enterprise, "")
	l.Policy = merge(l.Files, roots, home)
	return l
}

// read parses one file when it exists. A file that exists but cannot be
// read is an error of that file: it may hold rules.
func (l *Loaded) read(path string, layer Layer, root string) (*File, []byte) {
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	var f *File
	if err != nil {
		f = &File{Path: path, Layer: layer, Root: root, Trusted: true, Problems: []config.Problem{{
			File: path, Severity: config.Error, Message: "cannot read: " + err.Error(),
			Fix: "make it a readable file, or remove it",
		}}}
	} else {
		f = Parse(path, data, layer, root)
	}
	l.Files = append(l.Files, f)
	l.Problems = append(l.Problems, f.Problems...)
	return f, data
}

// checkTrust leaves out a project file the trust store does not vouch for,
// as config leaves out an untrusted project's hooks.
func (l *Loaded) checkTrust(f *File, data []byte, trust config.Trust) {
	if data == nil {
		// Unreadable: it cannot be checked against its pin.
		f.Trusted, f.TrustReason = false, "it cannot be read"
	} else if trust == nil {
		f.Trusted, f.TrustReason = false, "no trust store is configured, so no project sandbox file is trusted"
	} else {
		f.Trusted, f.TrustReason = trust.Check(f.Root, f.Path, data)
	}
	if f.Trusted {
		return
	}
	if pinned(trust, f.Root, f.Path) {
		// Trusted as it was, changed since: left out, it would let a
		// command loosen its own sandbox by editing it. It stops commands
		// until the user has looked at it.
		f.Trusted = true
		// The reason's own "run agenthooks trust" is left to the fix:
		// said once.
		detail := f.TrustReason
		if i := strings.Index(detail, "(pinned"); i >= 0 {
			if j := strings.Index(detail[i:], ")"); j > 0 {
				detail = detail[i+1 : i+j]
			}
		}
		p := config.Problem{File: f.Path, Severity: config.Error,
			Message: "changed since the workspace was trusted (" + detail + "); no command runs until it is reviewed, since a command could otherwise loosen its own sandbox by editing it",
			Fix:     "review it, then run agenthooks trust " + f.Root}
		f.Problems = append(f.Problems, p)
		l.Problems = append(l.Problems, p)
		return
	}
	l.Problems = append(l.Problems, config.Problem{File: f.Path, Severity: config.Warning,
		Message: "not applied: the workspace's sandbox file is not trusted (" + f.TrustReason + ")",
		Fix:     "review it, then run agenthooks trust " + f.Root})
}

// checkRemoved stops commands when the project's sandbox file was pinned
// by the workspace's trust and is gone: removing it must not open the
// sandbox either.
func (l *Loaded) checkRemoved(path, root string, trust config.Trust) {
	if !pinned(trust, root, path) {
		return
	}
	p := config.Problem{File: path, Severity: config.Error,
		Message: "removed since the workspace was trusted; no command runs until the workspace is reviewed, since a command could otherwise open its own sandbox by deleting it",
		Fix:     "restore it, or review the workspace and run agenthooks trust " + root}
	l.Files = append(l.Files, &File{Path: path, Layer: Project, Root: root, Trusted: true, Problems: []config.Problem{p}})
	l.Problems = append(l.Problems, p)
}

// pinner is a trust store that says which files it pinned (package
// trust's Store).
type pinner interface {
	Trusted(root string) bool
	Pinned(root, file string) bool
}

// pinned reports whether the trust store pinned file in the trusted
// workspace root.
func pinned(trust config.Trust, root, file string) bool {
	p, ok := trust.(pinner)
	return ok && p.Trusted(root) && p.Pinned(root, file)
}

// readFile reads at most maxFileSize bytes; a folder is an error.
func readFile(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if st, err := fh.Stat(); err == nil && st.IsDir() {
		return nil, errors.New("it is a folder")
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	return data, nil
}
