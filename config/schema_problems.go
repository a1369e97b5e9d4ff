package config

import (
	"crypto/sha256"
	"os"
)

// schemaFix points at where the format is written down.
const schemaFix = `compare with the format printed by "agenthooks schema"`

// SchemaProblems checks the hooks file at path, whose content is data,
// against Schema, and returns each violation that already (the problems
// ParseFile reported for this same file) does not cover, as an Error
// located at line:col like the loader's own problems.
//
// A violation is covered when a problem in already has the same JSON
// pointer: the loader and the schema describe the same format, so where
// both object they object to the same value, and the loader's message
// (with its fix) is the better one. What remains is what the loader let
// through but the published schema, and so every editor using it,
// rejects.
//
// A file that is not JSON gives nothing: the loader has reported the
// syntax error. The document is read with the loader's own parser, so
// both see the same values (a byte order mark skipped, the last of
// duplicate keys kept).
func SchemaProblems(path string, data []byte, already []Problem) []Problem {
	doc, ok := parseJSON(data, newReporter(path, data))
	if !ok {
		return nil
	}
	sch, err := compiledSchema()
	if err != nil {
		// Only a keyword the checker does not know can cause this; the
		// tests rule it out.
		return []Problem{{File: path, Severity: Error, Message: err.Error()}}
	}
	violations := sch.check(doc)
	if len(violations) == 0 {
		return nil
	}
	covered := make(map[string]bool, len(already))
	for _, p := range already {
		covered[p.Pointer] = true
	}
	out := newReporter(path, data)
	seen := map[string]bool{}
	for _, v := range violations {
		msg := "does not match the schema: " + v.message
		key := v.pointer + "\x00" + msg
		if covered[v.pointer] || seen[key] {
			continue
		}
		seen[key] = true
		out.errAt(v.node.off, v.pointer, msg, schemaFix)
	}
	return out.sorted()
}

// SchemaProblems checks the file, as it was when loaded, against Schema
// and returns what its Problems do not already cover (see the function
// SchemaProblems). It reads the file again and gives nothing when the
// content no longer has the loaded SHA-256 (the next load reports on the
// new content) or cannot be read (the load reported that), and nothing
// for Claude Code settings files, which have a format of their own.
func (f *File) SchemaProblems() []Problem {
	switch f.Source {
	case Enterprise, Team, Project, User:
	default:
		return nil
	}
	data, err := os.ReadFile(f.Path)
	if err != nil || sha256.Sum256(data) != f.SHA256 {
		return nil
	}
	return SchemaProblems(f.Path, data, f.Problems)
}
