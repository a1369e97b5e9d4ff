package config

import (
	"strconv"
	"strings"
)

// Severity says whether a Problem stops something from loading.
type Severity int

const (
	// Error: the hook (or the whole file, when the top level is broken)
	// is not loaded; or, for a Problem that Disarms, it loads but cannot
	// do what its author meant.
	Error Severity = iota
	// Warning: everything still loads, but the file probably does not
	// say what its author meant (an unknown step, an unknown key, …).
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Problem is one finding about a hooks file: where it is, what is wrong
// and how to fix it. Line and Col are 1-based (Col counts characters);
// both are 0 when the problem concerns the file as a whole (it cannot be
// read, its hooks were not trusted).
type Problem struct {
	File     string
	Pointer  string // RFC 6901 JSON pointer to the value concerned, "" for the whole document
	Line     int
	Col      int
	Severity Severity
	Message  string
	Fix      string
	// Disarms marks an error that silently disarms a guard (a step or key
	// misspelt, a matcher that can never match, a program that is not
	// there, a timeout meant as milliseconds; Disarming): the hook still
	// loads as written, but validate exits 1, trust refuses until --force,
	// list marks the hook, and the team server refuses the entry.
	Disarms bool
}

// Error formats the problem the way compilers do, so editors and
// terminals can jump to it:
//
//	/home/u/.cursor/hooks.json:7:18: hooks.beforeShellExecution[1].timeout: must be a positive number of seconds, got -3 (fix: use e.g. "timeout": 30)
//
// Warnings carry "warning: " before the path.
func (p Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(p.Line))
		if p.Col > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(p.Col))
		}
	}
	b.WriteString(": ")
	if p.Severity == Warning {
		b.WriteString("warning: ")
	}
	if path := ReadablePath(p.Pointer); path != "" {
		b.WriteString(path)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	if p.Fix != "" {
		b.WriteString(" (fix: ")
		b.WriteString(p.Fix)
		b.WriteByte(')')
	}
	return b.String()
}

// ReadablePath turns a JSON pointer such as /hooks/stop/0/loop_limit into
// the form people write, hooks.stop[0].loop_limit. A segment made only of
// digits is shown as an array index; in hooks.json every object key at
// such a place is a step or option name, so the guess is right in
// practice. Keys that are not plain identifiers are quoted: ["my key"].
func ReadablePath(pointer string) string {
	if pointer == "" {
		return ""
	}
	var b strings.Builder
	for _, seg := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		seg = unescapePointer(seg)
		switch {
		case isIndex(seg):
			b.WriteByte('[')
			b.WriteString(seg)
			b.WriteByte(']')
		case isIdent(seg):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(seg)
		default:
			b.WriteByte('[')
			b.WriteString(strconv.Quote(seg))
			b.WriteByte(']')
		}
	}
	return b.String()
}

// pointerJoin appends one segment to a JSON pointer, escaping it.
func pointerJoin(pointer, seg string) string {
	if strings.ContainsAny(seg, "~/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~", "~0"), "/", "~1")
	}
	return pointer + "/" + seg
}

func pointerIndex(pointer string, i int) string {
	return pointer + "/" + strconv.Itoa(i)
}

func unescapePointer(seg string) string {
	if !strings.Contains(seg, "~") {
		return seg
	}
	return strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || c == '$' || (c|0x20 >= 'a' && c|0x20 <= 'z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
