package config

import (
	"fmt"
	"strconv"
	"strings"
)

type runFileKey struct{ root, path string }

// runFileVerdict is CheckRunFile's answer for one file.
type runFileVerdict struct {
	ok      bool
	reason  string
	present bool // something is at the path (a file, a folder, a link)
}

// checkRunFiles checks the files that the hooks of a trusted project file
// run or read against their pins, and returns the hooks to keep out of
// the set: those naming a file that changed, appeared, vanished or cannot
// be read since the workspace was trusted. The file's other hooks still
// run; their own files are as reviewed. Each such file gets one error
// naming it and the hooks it stopped.
//
// Every path a hook names is watched, so a long-lived host reloads (and
// stops the hook) as soon as a pinned script is edited.
func (l *loader) checkRunFiles(f *File) map[*Hook]bool {
	rt, ok := l.trust.(RunFileTrust)
	if !ok || !f.Trusted {
		return nil
	}
	if l.runFiles == nil {
		l.runFiles = map[runFileKey]runFileVerdict{}
	}
	check := func(file string, present bool, sum [32]byte) (bool, string) {
		return rt.CheckRunFile(f.Root, file, present, sum)
	}
	if c, ok := rt.(runFileChecker); ok {
		check = c.RunFileChecker(f.Root)
	}
	var order []string                // failing files, in order of first use
	stoppedBy := map[string][]*Hook{} // failing file → the hooks it stops
	reasons := map[string]string{}    // failing file → why
	stopped := map[*Hook]bool{}
	for _, h := range f.Hooks {
		if h.Type == TypePrompt {
			continue
		}
		// As Hook.RunFiles, with each file read once per load.
		for _, p := range RunFilePaths(h.Command, h.Dir, h.Root, h.ProjectDirVars()) {
			v := l.runFileVerdict(check, f.Root, p)
			if v.present {
				l.watch(p)
			} else {
				// A file appearing changes its folder: watching that
				// is enough, and a stat less per step.
				l.watchParents(p)
			}
			if v.ok {
				continue
			}
			if _, seen := reasons[p]; !seen {
				order = append(order, p)
				reasons[p] = v.reason
			}
			// RunFilePaths names each path once, so h is not listed yet.
			stoppedBy[p] = append(stoppedBy[p], h)
			stopped[h] = true
		}
	}
	for _, p := range order {
		hs := stoppedBy[p]
		ids := make([]string, len(hs))
		for i, h := range hs {
			ids[i] = string(h.Step) + "[" + strconv.Itoa(h.Index) + "]"
		}
		f.Problems = append(f.Problems, Problem{
			File: f.Path, Severity: Error,
			Message: fmt.Sprintf("%d project hook(s) skipped (%s): %s", len(hs), strings.Join(ids, ", "), reasons[p]),
			Fix:     "review the file, then trust the workspace again; trust is pinned to the hooks file and to every workspace file its hooks run, so every edit needs a new review",
		})
	}
	return stopped
}

// runFileChecker is a RunFileTrust that checks the files of one root for
// one load more cheaply than CheckRunFile file by file (package trust's
// Store resolves the root and each folder once).
type runFileChecker interface {
	RunFileChecker(root string) func(file string, present bool, sum [32]byte) (ok bool, reason string)
}

// runFileVerdict reads one file and asks the trust store about it (with
// check), once per load.
func (l *loader) runFileVerdict(check func(string, bool, [32]byte) (bool, string), root, path string) runFileVerdict {
	k := runFileKey{root, path}
	if v, ok := l.runFiles[k]; ok {
		return v
	}
	rf := readRunFile(path)
	v := runFileVerdict{present: rf.Present || rf.Err != nil}
	if rf.Err != nil {
		v.reason = fmt.Sprintf("cannot read %s to check it against the workspace's trust: %s", rf.Path, errText(rf.Err))
	} else {
		v.ok, v.reason = check(rf.Path, rf.Present, rf.SHA256)
		if !v.ok && v.reason == "" {
			v.reason = rf.Path + " is not trusted"
		}
	}
	l.runFiles[k] = v
	return v
}
