package config

import (
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"

	"github.com/agenthooks/agenthooks/event"
)

// File is one hooks.json as found in one source: its hooks, its problems
// and, for project-level sources, whether it is trusted.
type File struct {
	Path   string
	Source Source
	Root   string // workspace root the file belongs to (project), or the first root
	Dir    string // working directory of its hooks
	SHA256 [32]byte
	// Version is the file's "version"; 1 when it is missing or invalid,
	// as that is the only schema there is.
	Version int
	// Hooks are the valid hook definitions in document order. For an
	// untrusted file they are listed here but not run.
	Hooks    []*Hook
	Problems []Problem // in document order
	// Bridges counts the handlers of an agent's settings file that run
	// agenthooks itself (what agenthooks install writes): left out of
	// Hooks, since they are the way in, not hooks to run.
	Bridges int
	// Trusted reports that the file itself is as trusted. With a
	// RunFileTrust, a hook of a trusted file whose workspace files changed
	// is still kept out of Set.Hooks, with an error among Problems.
	Trusted bool
	// TrustReason says why the file is (not) trusted, as the trust
	// checker put it.
	TrustReason string
	// Plugins are the plugins another agent's settings file enables or
	// disables by id ("enabledPlugins"), for Settings.Plugins; nil for a
	// Cursor file.
	Plugins map[string]bool
	// Env is another agent's settings file's env block ("env"), which
	// Load gives the hooks of its agent's sources (Hook.Env); nil for a
	// Cursor file.
	Env map[string]string
}

// HasErrors reports whether any problem of the file is an error.
func (f *File) HasErrors() bool {
	for _, p := range f.Problems {
		if p.Severity == Error {
			return true
		}
	}
	return false
}

// ParseFile parses and validates the hooks file at path whose content is
// data. Problems never stop the parse early except where the structure
// makes it meaningless: a syntax error, a top level that is not an
// object, or "hooks" that is missing or not an object leave the file
// without hooks. Otherwise each hook with an error is dropped and the
// rest load; warnings drop nothing.
//
// ParseFile does not consult trust: a file from a non-project source is
// Trusted, a project-level one is not until Load checks it.
//
// A "version" that is missing (the docs' own examples omit it) is a
// warning; one that is not a positive integer is an error, but the hooks
// still load: skipping an enterprise file's security hooks over a typo in
// its version would fail open.
//
// A file that holds another agent's matcher groups is told so; to name
// the agent, parse it through the host's Sources (Sources.Parse).
func ParseFile(path string, data []byte, src Source, dir, root string) *File {
	return parseFile(path, data, src, dir, root, "")
}

// parseFile is ParseFile, naming groups as the agent whose format a
// mistaken file copies.
func parseFile(path string, data []byte, src Source, dir, root, groups string) *File {
	f, r, doc := startFile(path, data, src, dir, root, "the file", `write {"version": 1, "hooks": { … }}`)
	r.groups = groups
	defer func() { f.Problems = r.sorted() }()
	if doc == nil {
		return f
	}
	f.Version = parseVersion(doc, r)
	checkTopLevelKeys(doc, r)

	hooks, ok := doc.get("hooks")
	if !ok {
		r.errAt(doc.off, "", `missing "hooks"`,
			`add "hooks": {"beforeShellExecution": [{"command": "./script.sh"}]} with your steps`)
		return f
	}
	if hooks.value.kind != jsonObject {
		fix := `write "hooks": {"<step>": [{"command": "…"}]}`
		if hooks.value.kind == jsonArray {
			fix = `"hooks" maps step names to arrays of hooks: write "hooks": {"<step>": [{"command": "…"}]}`
		}
		r.errAt(hooks.value.off, "/hooks", "must be an object mapping step names to arrays of hooks, got "+
			hooks.value.kind.String(), fix)
		return f
	}
	for _, m := range hooks.value.members {
		f.Hooks = append(f.Hooks, parseStep(m, r)...)
	}
	for _, h := range f.Hooks {
		h.Source, h.File, h.Dir, h.Root = src, path, dir, root
	}
	return f
}

// startFile begins a File: its identity, its trust default, and its JSON,
// which must be an object; doc is nil (and the problem reported) when it
// is not. what names the file in that message, fix says what to write.
func startFile(path string, data []byte, src Source, dir, root, what, fix string) (*File, *reporter, *jsonNode) {
	f := &File{
		Path: path, Source: src, Dir: dir, Root: root,
		SHA256:  sha256.Sum256(data),
		Version: 1,
		Trusted: !src.ProjectLevel(),
	}
	r := newReporter(path, data)
	doc, ok := parseJSON(data, r)
	if !ok {
		return f, r, nil
	}
	if doc.kind != jsonObject {
		r.errAt(doc.off, "", what+" must hold a JSON object, got "+doc.kind.String(), fix)
		return f, r, nil
	}
	return f, r, doc
}

func parseVersion(doc *jsonNode, r *reporter) int {
	m, ok := doc.get("version")
	if !ok {
		r.warnAt(doc.off, "", `missing "version"; treating it as 1`, `add "version": 1`)
		return 1
	}
	v := m.value
	if v.kind == jsonNumber {
		if n := v.number(); n >= 1 && n <= 1<<31-1 && n == float64(int(n)) {
			if n != 1 {
				r.disarmAt(v.off, "/version", fmt.Sprintf("is %d; this format is version 1, and a host that knows only 1 may not read the file as written", int(n)),
					`write "version": 1`)
			}
			return int(n)
		}
	}
	fix := `write "version": 1`
	if v.kind == jsonString {
		fix += " (a number, without quotes)"
	}
	r.errAt(v.off, "/version", "must be a positive integer, got "+v.describe(), fix)
	return 1
}

// checkTopLevelKeys warns about keys other than version and hooks, and
// spots step names written outside "hooks".
func checkTopLevelKeys(doc *jsonNode, r *reporter) {
	for _, m := range doc.members {
		if m.key == "version" || m.key == "hooks" {
			continue
		}
		fix := "remove it; only \"version\" and \"hooks\" are read"
		if event.Step(m.key).Known() {
			fix = "move it inside \"hooks\""
		} else if s, ok := nearName(m.key, []string{"version", "hooks"}); ok {
			r.disarmAt(m.keyOff, pointerJoin("", m.key), "unknown top-level key "+strconv.Quote(shorten(m.key))+"; ignored", "did you mean "+strconv.Quote(s)+"?")
			continue
		} else if s, ok := closest(m.key, []string{"version", "hooks"}); ok {
			fix = "did you mean " + strconv.Quote(s) + "?"
		}
		r.warnAt(m.keyOff, pointerJoin("", m.key), "unknown top-level key "+strconv.Quote(shorten(m.key))+"; ignored", fix)
	}
}

// stepNames lists the known steps for suggestions.
var stepNames = func() []string {
	names := make([]string, len(event.Steps))
	for i, s := range event.Steps {
		names[i] = string(s)
	}
	return names
}()

// parseStep validates one "step": [hooks…] member and returns its valid
// hooks. An unknown step is a warning, so a file written for a newer
// Cursor still loads here.
func parseStep(m jsonMember, r *reporter) []*Hook {
	ptr := pointerJoin("/hooks", m.key)
	step := event.Step(m.key)
	if !step.Known() {
		if s, ok := nearName(m.key, stepNames); ok {
			// beforeShellExecuton: a guard that never runs.
			r.disarmAt(m.keyOff, ptr, "unknown step "+strconv.Quote(shorten(m.key))+"; its hooks are skipped", "did you mean "+s+"?")
			return nil
		}
		fix := "use one of: " + strings.Join(stepNames, ", ")
		if s, ok := closest(m.key, stepNames); ok {
			fix = "did you mean " + s + "?"
		}
		r.warnAt(m.keyOff, ptr, "unknown step "+strconv.Quote(shorten(m.key))+"; its hooks are skipped", fix)
		return nil
	}
	v := m.value
	if v.kind != jsonArray {
		fix := `write "` + m.key + `": [{"command": "…"}]`
		if v.kind == jsonObject {
			fix = "wrap the hook in [ ]: \"" + m.key + "\": [ { … } ]"
		}
		r.errAt(v.off, ptr, "must be an array of hooks, got "+v.kind.String(), fix)
		return nil
	}
	var hooks []*Hook
	for i, e := range v.elems {
		if h := parseHook(e, step, pointerIndex(ptr, i), r); h != nil {
			h.Index = i
			hooks = append(hooks, h)
		}
	}
	return hooks
}
