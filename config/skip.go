package config

// loadQuiet reads a settings file whose own hooks the asking agent runs
// itself (Skip.Hooks) for what it still gives the hooks agenthooks runs:
// the plugins it enables and its env block. Its hooks, its problems and
// any stand-ins stay out of the set (the agent reports and runs those);
// a project file counts only once trusted, as it would for its plugins.
// A file that is missing or cannot be read gives nothing, one that
// cannot be parsed what could be read of it.
func (l *loader) loadQuiet(path string, src Source, dir, root string) *File {
	l.watch(path)
	data, err := readFile(path)
	if err != nil {
		return nil
	}
	f := l.set.Sources.Parse(path, data, src, dir, root)
	f.Hooks, f.Problems = nil, nil
	f.Trusted = !src.ProjectLevel() || l.quietTrust(f, data)
	return f
}

// quietTrust is checkTrust without its reports: whether a project file
// is trusted, false when that cannot be known.
func (l *loader) quietTrust(f *File, data []byte) bool {
	if tf, ok := l.trust.(TrustFault); ok && tf.Fault() != nil {
		return false
	}
	if l.trust == nil {
		return false
	}
	ok, _ := l.trust.Check(f.Root, f.Path, data)
	return ok
}
