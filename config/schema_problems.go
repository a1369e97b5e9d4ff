package config

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// schemaResource names the schema inside the validator; it is never
// fetched.
const schemaResource = "urn:agenthooks:hooks.schema.json"

// compiledSchema compiles Schema once for SchemaProblems.
var compiledSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema()))
	if err != nil {
		return nil, fmt.Errorf("hooks.json schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaResource, doc); err != nil {
		return nil, fmt.Errorf("hooks.json schema: %w", err)
	}
	s, err := c.Compile(schemaResource)
	if err != nil {
		return nil, fmt.Errorf("hooks.json schema: %w", err)
	}
	return s, nil
})

var schemaPrinter = message.NewPrinter(language.English)

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
	r := newReporter(path, data)
	doc, ok := parseJSON(data, r)
	if !ok {
		return nil
	}
	sch, err := compiledSchema()
	if err != nil {
		// Only a broken Document tag can cause this; the tests rule it out.
		return []Problem{{File: path, Severity: Error, Message: err.Error()}}
	}
	err = sch.Validate(doc.value())
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	covered := make(map[string]bool, len(already))
	for _, p := range already {
		covered[p.Pointer] = true
	}
	out := newReporter(path, data)
	seen := map[string]bool{}
	for _, leaf := range schemaLeaves(ve, nil) {
		ptr := pointerOf(leaf.InstanceLocation)
		msg := "does not match the schema: " + leaf.ErrorKind.LocalizedString(schemaPrinter)
		if covered[ptr] || seen[ptr+"\x00"+msg] {
			continue
		}
		seen[ptr+"\x00"+msg] = true
		off := doc.off
		if n := doc.at(leaf.InstanceLocation); n != nil {
			off = n.off
		}
		out.errAt(off, ptr, msg, schemaFix)
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

// schemaLeaves returns the innermost errors: the ones that name a keyword
// the value failed, rather than a schema whose parts failed.
func schemaLeaves(e *jsonschema.ValidationError, acc []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(acc, e)
	}
	for _, c := range e.Causes {
		acc = schemaLeaves(c, acc)
	}
	return acc
}

// pointerOf joins the validator's instance location into a JSON pointer.
func pointerOf(loc []string) string {
	ptr := ""
	for _, seg := range loc {
		ptr = pointerJoin(ptr, seg)
	}
	return ptr
}

// value converts the tree into the form the validator reads: numbers
// keep their literal text, so no precision is lost.
func (n *jsonNode) value() any {
	switch n.kind {
	case jsonBool:
		return n.boolean
	case jsonNumber:
		return json.Number(n.str)
	case jsonString:
		return n.str
	case jsonArray:
		a := make([]any, len(n.elems))
		for i, e := range n.elems {
			a[i] = e.value()
		}
		return a
	case jsonObject:
		m := make(map[string]any, len(n.members))
		for _, mb := range n.members {
			m[mb.key] = mb.value.value()
		}
		return m
	}
	return nil
}

// at follows a path of object keys and array indexes from n; nil when it
// leads nowhere.
func (n *jsonNode) at(path []string) *jsonNode {
	for _, seg := range path {
		switch n.kind {
		case jsonObject:
			m, ok := n.get(seg)
			if !ok {
				return nil
			}
			n = m.value
		case jsonArray:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(n.elems) {
				return nil
			}
			n = n.elems[i]
		default:
			return nil
		}
	}
	return n
}
