package config

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds nesting so a hostile file cannot exhaust the stack.
const maxDepth = 1000

// parseJSON parses data into a tree. Syntax errors are reported with
// their position, a message and a fix, and parsing stops at the first one
// (ok is false). Duplicate keys are reported as warnings; as with
// JavaScript's JSON.parse, which Cursor uses, the last one wins.
//
// A UTF-8 byte order mark at the start is skipped: Windows editors write
// one, and refusing the file over an invisible character helps nobody.
func parseJSON(data []byte, r *reporter) (doc *jsonNode, ok bool) {
	p := &jsonParser{data: data, r: r}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		p.pos = 3
	}
	p.skipSpace()
	if p.eof() {
		r.errAt(p.pos, "", "the file is empty", `write {"version": 1, "hooks": {}}`)
		return nil, false
	}
	doc, err := p.value(nil)
	if err != nil {
		p.report(err)
		return nil, false
	}
	p.skipSpace()
	if !p.eof() {
		p.report(&syntaxError{off: p.pos, msg: "unexpected text after the end of the JSON document",
			fix: "a hooks file holds a single object; remove what follows its closing }"})
		return nil, false
	}
	return doc, true
}

type syntaxError struct {
	off      int
	pointer  string // the innermost container being parsed
	msg, fix string
}

func (p *jsonParser) report(e *syntaxError) {
	p.r.errAt(e.off, e.pointer, "invalid JSON: "+e.msg, e.fix)
}

type jsonParser struct {
	data  []byte
	pos   int
	depth int
	r     *reporter
}

func (p *jsonParser) eof() bool { return p.pos >= len(p.data) }

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// here returns the position of off as "line:col" for messages that point
// at a second place.
func (p *jsonParser) here(off int) string {
	line, col := p.r.lines.position(off)
	return strconv.Itoa(line) + ":" + strconv.Itoa(col)
}

func (p *jsonParser) value(ptr *jsonPath) (*jsonNode, *syntaxError) {
	if p.eof() {
		return nil, &syntaxError{off: p.pos, pointer: ptr.String(), msg: "unexpected end of file, expected a value",
			fix: "the file is cut short; complete it"}
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(ptr)
	case c == '[':
		return p.array(ptr)
	case c == '"':
		start := p.pos
		s, err := p.string(ptr)
		if err != nil {
			return nil, err
		}
		return &jsonNode{kind: jsonString, off: start, end: p.pos, str: s}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(ptr)
	case isWordByte(c):
		return p.word(ptr)
	default:
		return nil, p.unexpected(ptr, "a value")
	}
}

// word parses true, false and null, and explains the near misses
// (True, undefined, unquoted text).
func (p *jsonParser) word(ptr *jsonPath) (*jsonNode, *syntaxError) {
	start := p.pos
	end := start
	for end < len(p.data) && isWordByte(p.data[end]) {
		end++
	}
	w := string(p.data[start:end])
	n := &jsonNode{off: start, end: end}
	switch w {
	case "true", "false":
		n.kind, n.boolean = jsonBool, w == "true"
	case "null":
		n.kind = jsonNull
	default:
		e := &syntaxError{off: start, pointer: ptr.String()}
		switch lw := strings.ToLower(w); {
		case lw == "true" || lw == "false" || lw == "null":
			e.msg, e.fix = strconv.Quote(w)+" is not a JSON value", "write it in lowercase: "+lw
		case w == "undefined" || w == "NaN" || w == "Infinity":
			e.msg, e.fix = w+" is not a JSON value", "use null or a number, or remove the entry"
		default:
			e.msg, e.fix = "unquoted text "+strconv.Quote(shorten(w)), "put strings in double quotes: "+strconv.Quote(shorten(w))
		}
		return nil, e
	}
	p.pos = end
	return n, nil
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
}

// unexpected builds the error for a byte that cannot start what was
// expected, recognising the usual mistakes: comments, single quotes, a
// plus sign or a bare dot before a number.
func (p *jsonParser) unexpected(ptr *jsonPath, expected string) *syntaxError {
	e := &syntaxError{off: p.pos, pointer: ptr.String()}
	if p.eof() {
		e.msg, e.fix = "unexpected end of file, expected "+expected, "the file is cut short; complete it"
		return e
	}
	r, _ := utf8.DecodeRune(p.data[p.pos:])
	e.msg = "unexpected " + strconv.QuoteRune(r) + ", expected " + expected
	switch c := p.data[p.pos]; c {
	case '/':
		e.msg, e.fix = "comments are not allowed in JSON", "remove the comment"
	case '\'':
		e.msg, e.fix = "strings must use double quotes, not single quotes", `replace ' with "`
	case '+':
		e.fix = "write the number without a plus sign"
	case '.':
		e.fix = "write a leading zero, as in 0.5"
	case ',':
		e.fix = "remove the extra comma"
	default:
		e.fix = "check the JSON syntax at this position"
	}
	return e
}

func (p *jsonParser) enter(ptr *jsonPath) *syntaxError {
	p.depth++
	if p.depth > maxDepth {
		return &syntaxError{off: p.pos, pointer: ptr.String(), msg: "nested more than " + strconv.Itoa(maxDepth) + " levels deep",
			fix: "flatten the structure"}
	}
	return nil
}

func (p *jsonParser) unclosed(ptr *jsonPath, open int, what string) *syntaxError {
	return &syntaxError{off: p.pos, pointer: ptr.String(),
		msg: "unexpected end of file: the " + what + " opened at " + p.here(open) + " is never closed",
		fix: "close it, and check for a missing } or ] before it"}
}

func (p *jsonParser) object(ptr *jsonPath) (*jsonNode, *syntaxError) {
	if err := p.enter(ptr); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &jsonNode{kind: jsonObject, off: p.pos}
	p.pos++ // past the {

	var seen map[string]int // key → index in n.members, built once the object grows
	comma := -1             // offset of the comma before the current member
	for {
		p.skipSpace()
		if p.eof() {
			return nil, p.unclosed(ptr, n.off, "{")
		}
		c := p.data[p.pos]
		if c == '}' {
			if comma >= 0 {
				return nil, &syntaxError{off: comma, pointer: ptr.String(), msg: "trailing comma before }", fix: "remove the comma"}
			}
			p.pos++
			n.end = p.pos
			return n, nil
		}
		if c != '"' {
			return nil, p.badKey(ptr)
		}
		keyOff := p.pos
		key, err := p.string(ptr)
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.eof() {
			return nil, p.unclosed(ptr, n.off, "{")
		}
		if p.data[p.pos] != ':' {
			return nil, &syntaxError{off: p.pos, pointer: ptr.String(),
				msg: "expected ':' after the key " + strconv.Quote(shorten(key)),
				fix: "write " + strconv.Quote(shorten(key)) + ": value"}
		}
		p.pos++
		p.skipSpace()
		child := jsonPath{parent: ptr, key: key}
		v, err := p.value(&child)
		if err != nil {
			return nil, err
		}
		seen = p.addMember(n, seen, jsonMember{key: key, keyOff: keyOff, value: v}, &child)

		p.skipSpace()
		if p.eof() {
			return nil, p.unclosed(ptr, n.off, "{")
		}
		switch p.data[p.pos] {
		case ',':
			comma = p.pos
			p.pos++
		case '}':
			p.pos++
			n.end = p.pos
			return n, nil
		case '"':
			return nil, &syntaxError{off: p.pos, pointer: ptr.String(), msg: "missing comma between object members",
				fix: "add a comma after the value that ends at " + p.here(v.end)}
		default:
			return nil, p.unexpected(ptr, "',' or '}'")
		}
	}
}

// badKey explains a byte that cannot start an object key.
func (p *jsonParser) badKey(ptr *jsonPath) *syntaxError {
	if isWordByte(p.data[p.pos]) {
		end := p.pos
		for end < len(p.data) && isWordByte(p.data[end]) {
			end++
		}
		w := shorten(string(p.data[p.pos:end]))
		return &syntaxError{off: p.pos, pointer: ptr.String(), msg: "object keys must be in double quotes",
			fix: "write " + strconv.Quote(w)}
	}
	return p.unexpected(ptr, "a key in double quotes or '}'")
}

// addMember appends m to n, replacing an earlier member with the same key
// (last one wins, as in JSON.parse) and warning about it. seen indexes the
// keys once the object is large enough for linear search to be slow.
func (p *jsonParser) addMember(n *jsonNode, seen map[string]int, m jsonMember, ptr *jsonPath) map[string]int {
	const indexAt = 16
	prev := -1
	if seen != nil {
		if i, ok := seen[m.key]; ok {
			prev = i
		}
	} else {
		for i := range n.members {
			if n.members[i].key == m.key {
				prev = i
				break
			}
		}
	}
	if prev >= 0 {
		report, at := p.r.warnAt, ptr.String()
		if disarmingDuplicate(at) {
			report = p.r.disarmAt
		}
		report(m.keyOff, at,
			"duplicate key "+strconv.Quote(shorten(m.key))+": this one replaces the one at "+p.here(n.members[prev].keyOff),
			"keep only one of them; merge their contents if both are needed")
		n.members = append(n.members[:prev], n.members[prev+1:]...)
		seen = nil // indices moved; rebuilt below if still large
	}
	n.members = append(n.members, m)
	if seen != nil {
		seen[m.key] = len(n.members) - 1
	} else if len(n.members) >= indexAt {
		seen = make(map[string]int, len(n.members))
		for i, mm := range n.members {
			seen[mm.key] = i
		}
	}
	return seen
}

func (p *jsonParser) array(ptr *jsonPath) (*jsonNode, *syntaxError) {
	if err := p.enter(ptr); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &jsonNode{kind: jsonArray, off: p.pos}
	p.pos++ // past the [
	comma := -1
	for {
		p.skipSpace()
		if p.eof() {
			return nil, p.unclosed(ptr, n.off, "[")
		}
		if p.data[p.pos] == ']' {
			if comma >= 0 {
				return nil, &syntaxError{off: comma, pointer: ptr.String(), msg: "trailing comma before ]", fix: "remove the comma"}
			}
			p.pos++
			n.end = p.pos
			return n, nil
		}
		elem := jsonPath{parent: ptr, index: len(n.elems), isIndex: true}
		v, err := p.value(&elem)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.skipSpace()
		if p.eof() {
			return nil, p.unclosed(ptr, n.off, "[")
		}
		switch p.data[p.pos] {
		case ',':
			comma = p.pos
			p.pos++
		case ']':
			p.pos++
			n.end = p.pos
			return n, nil
		case '{', '[', '"':
			return nil, &syntaxError{off: p.pos, pointer: ptr.String(), msg: "missing comma between array elements",
				fix: "add a comma after the value that ends at " + p.here(v.end)}
		default:
			return nil, p.unexpected(ptr, "',' or ']'")
		}
	}
}

// string parses a string starting at the opening quote and returns its
// decoded value. Invalid UTF-8 becomes U+FFFD, as when Node reads the
// file as UTF-8.
func (p *jsonParser) string(ptr *jsonPath) (string, *syntaxError) {
	start := p.pos
	i := start + 1
	escaped := false
	for {
		if i >= len(p.data) {
			return "", &syntaxError{off: start, pointer: ptr.String(), msg: "string is never closed", fix: `end it with "`}
		}
		c := p.data[i]
		switch {
		case c == '"':
			p.pos = i + 1
			raw := p.data[start:p.pos]
			if !escaped && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", &syntaxError{off: start, pointer: ptr.String(), msg: "malformed string: " + err.Error(),
					fix: "check the escapes in this string"}
			}
			return s, nil
		case c == '\\':
			escaped = true
			if err := p.escape(ptr, i); err != nil {
				return "", err
			}
			if p.data[i+1] == 'u' {
				i += 6
			} else {
				i += 2
			}
		case c == '\n' || c == '\r':
			return "", &syntaxError{off: start, pointer: ptr.String(), msg: "string is not closed before the end of the line",
				fix: `end it with " on the same line; write a line break inside a string as \n`}
		case c < 0x20:
			return "", &syntaxError{off: i, pointer: ptr.String(), msg: "control character in a string",
				fix: `escape it, as in \t or \u00` + strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16)}
		default:
			i++
		}
	}
}

// escape checks the escape sequence starting at the backslash at i.
func (p *jsonParser) escape(ptr *jsonPath, i int) *syntaxError {
	if i+1 >= len(p.data) {
		return &syntaxError{off: i, pointer: ptr.String(), msg: "string is never closed", fix: `end it with "`}
	}
	switch p.data[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return nil
	case 'u':
		for k := i + 2; k < i+6; k++ {
			if k >= len(p.data) || !isHex(p.data[k]) {
				return &syntaxError{off: i, pointer: ptr.String(), msg: `\u must be followed by four hex digits`,
					fix: `write the character as \u followed by its four-digit hex code, e.g. \u00e9`}
			}
		}
		return nil
	default:
		r, _ := utf8.DecodeRune(p.data[i+1:])
		return &syntaxError{off: i, pointer: ptr.String(), msg: `invalid escape \` + string(r),
			fix: `write a backslash as \\ (Windows paths: C:\\Users\\…, or use forward slashes)`}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'f')
}

// number parses a number per the JSON grammar, keeping its text.
func (p *jsonParser) number(ptr *jsonPath) (*jsonNode, *syntaxError) {
	start := p.pos
	i := start
	digits := func() int {
		n := 0
		for i < len(p.data) && p.data[i] >= '0' && p.data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	bad := func(msg, fix string) (*jsonNode, *syntaxError) {
		return nil, &syntaxError{off: start, pointer: ptr.String(), msg: msg, fix: fix}
	}
	if p.data[i] == '-' {
		i++
	}
	switch {
	case i < len(p.data) && p.data[i] == '0':
		i++
		if i < len(p.data) && p.data[i] >= '0' && p.data[i] <= '9' {
			return bad("numbers cannot have leading zeros", "remove the leading zeros")
		}
	case digits() == 0:
		return bad("'-' must be followed by a digit", "write a number such as -1, or remove the '-'")
	}
	if i < len(p.data) && p.data[i] == '.' {
		i++
		if digits() == 0 {
			return bad("a decimal point must be followed by digits", "write 1.0 or 1, not 1.")
		}
	}
	if i < len(p.data) && (p.data[i] == 'e' || p.data[i] == 'E') {
		i++
		if i < len(p.data) && (p.data[i] == '+' || p.data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return bad("an exponent must have digits", "write e.g. 1e3")
		}
	}
	if i < len(p.data) && isWordByte(p.data[i]) {
		return bad("unexpected "+strconv.QuoteRune(rune(p.data[i]))+" after a number",
			"put text in double quotes, or remove the stray character")
	}
	p.pos = i
	return &jsonNode{kind: jsonNumber, off: start, end: i, str: string(p.data[start:i])}, nil
}

// disarmingDuplicate reports whether a duplicate key at pointer disarms a
// guard (Problem.Disarms): "hooks" itself, a step (its hooks replaced by
// the later list, "[]" included), or a hook's command, matcher,
// failClosed, type, prompt or handler list. What runs is then not what
// the earlier one says, and JSON.parse, as Cursor reads the file, keeps
// the later one without a word.
func disarmingDuplicate(pointer string) bool {
	rest, ok := strings.CutPrefix(pointer, "/hooks")
	if !ok || (rest != "" && rest[0] != '/') {
		return false
	}
	if strings.Count(rest, "/") <= 1 {
		return true
	}
	switch rest[strings.LastIndexByte(rest, '/')+1:] {
	case "command", "matcher", "failClosed", "type", "prompt", "hooks":
		return true
	}
	return false
}
