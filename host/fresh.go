package host

import (
	"os"
	"slices"
	"time"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
)

// racyWindow is how long after a file's change its size and times stop
// being proof that it has not changed again: file systems keep times at
// a clock tick's granularity, and a second write of the same size in the
// same tick leaves them as they were. An engine loaded from a file
// changed that recently is loaded again for the next step.
const racyWindow = 2 * time.Second

// inputs are the files a loaded engine read, as they were: every hooks
// file (present or not) and the folders a new one would appear in, the
// files the hooks of trusted project files run or read (their pins:
// config.Set.Watched has them all), and the trust store. A host that outlives one
// step checks them before each step and reloads when one changed, so an
// edit, a revoke or a changed script counts from the very next step.
type inputs struct {
	sigs []fileSig
	racy bool
}

type fileSig struct {
	path string
	sig  stat
}

// stat is what a change of a file changes: whether it exists, its kind,
// size and times (the status-change time cannot be set back), and which
// file it is.
type stat struct {
	exists       bool
	mode         os.FileMode
	size         int64
	mtime, ctime int64
	//lint:ignore U1000 set by sysStat where the system gives them (Linux, macOS)
	dev, ino uint64
}

func statOf(path string) stat {
	fi, err := os.Stat(path)
	if err != nil {
		return stat{}
	}
	s := stat{exists: true, mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	sysStat(fi, &s)
	return s
}

// inputsOf records the inputs of eng, loaded at or after since.
func inputsOf(eng *engine.Engine, ts config.Trust, since time.Time) inputs {
	set := eng.Config()
	paths := set.Watched()
	if t, ok := ts.(interface{ Path() string }); ok && t.Path() != "" {
		paths = append(paths, t.Path())
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	in := inputs{sigs: make([]fileSig, len(paths))}
	edge := since.Add(-racyWindow).UnixNano()
	for i, p := range paths {
		s := statOf(p)
		in.sigs[i] = fileSig{path: p, sig: s}
		if s.mtime >= edge || s.ctime >= edge {
			in.racy = true
		}
	}
	return in
}

// current reports whether every input is as it was when recorded.
func (in inputs) current() bool {
	if in.racy {
		return false
	}
	for _, f := range in.sigs {
		if statOf(f.path) != f.sig {
			return false
		}
	}
	return true
}
