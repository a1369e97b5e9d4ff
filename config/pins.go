package config

import (
	"crypto/sha256"
	"errors"
	"fmt"
)

// projectSource is one project-level hooks file and its source.
type projectSource struct {
	path string
	src  Source
}

// projectSources lists the project-level hooks files of workspace root:
// .cursor/hooks.json, then the project-level settings files of every
// agent of ss, as Load reads them. Trust pins them all, whatever a host
// reads: trusting a workspace covers what any host runs.
func (ss Sources) projectSources(root string) []projectSource {
	out := []projectSource{{ProjectFile(root), Project}}
	for _, s := range ss.Settings() {
		for i, f := range s.Files {
			if f.Project {
				out = append(out, projectSource{f.Path(root), ss.File(s, i)})
			}
		}
	}
	return out
}

// ProjectPins returns what trusting workspace root pins now, path →
// SHA-256: each project-level hooks file that exists (.cursor/hooks.json
// and the project-level settings files of every agent of ss, whatever a
// host reads: the registry's full list), and every file that its hooks
// run or read (Hook.RunFiles), parsed and resolved exactly as Load does,
// so what is pinned is what Load checks. A file that exists but cannot be
// read is an error: trust must not cover what nobody could hash.
func (ss Sources) ProjectPins(root string) (map[string][32]byte, error) {
	root = absPath(root)
	pins := map[string][32]byte{}
	// The project's sandbox.json is trusted like its hooks: a command the
	// sandbox holds could otherwise loosen the next one's by editing it.
	sb := SandboxFileBeside(ProjectFile(root))
	switch data, err := readFile(sb); {
	case err == nil:
		pins[sb] = sha256.Sum256(data)
	case !missing(err) && !errors.Is(err, errIsDir):
		return nil, fmt.Errorf("cannot pin %s: %s", sb, errText(err))
	}
	for _, ps := range ss.projectSources(root) {
		data, err := readFile(ps.path)
		switch {
		case missing(err) || errors.Is(err, errIsDir):
			continue
		case err != nil:
			return nil, fmt.Errorf("cannot pin %s: %s", ps.path, errText(err))
		}
		pins[ps.path] = sha256.Sum256(data)
		for _, h := range ss.Parse(ps.path, data, ps.src, root, root).Hooks {
			for _, rf := range h.RunFiles() {
				switch {
				case rf.Err != nil:
					return nil, fmt.Errorf("cannot pin %s, which a hook of %s runs: %s", rf.Path, ps.path, errText(rf.Err))
				case rf.Present:
					pins[rf.Path] = rf.SHA256
				}
			}
		}
	}
	return pins, nil
}
