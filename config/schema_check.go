package config

import (
	"cmp"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// This file is a small JSON Schema (draft 2020-12) interpreter for the
// schema Schema generates, so that checking a file against it needs no
// general validator: such libraries compile their meta-schemas when the
// program starts, and agenthooks starts once per agent step.
//
// It knows exactly the keywords the reflector writes, and compiling a
// schema with any other keyword fails: a new keyword in the generated
// schema must be taught here, never silently ignored. The tests check it
// against a complete validator on documents, examples and fuzzed input.
//
// Where the specification leaves room, it does what that validator
// (santhosh-tekuri/jsonschema) does, so the two report the same places: a
// value of the wrong type, or failing const or enum, is reported for that
// alone; additionalProperties: false is reported at the object.

// schemaNode is one compiled schema or subschema.
type schemaNode struct {
	reject     bool // the boolean schema false
	types      schemaTypes
	typeNames  []string // the type keyword as written, for messages
	constVal   *jsonNode
	enum       []*jsonNode
	ref        *schemaNode // the target of $ref, resolved once all of $defs is compiled
	properties map[string]*schemaNode
	additional *schemaNode
	required   []string
	items      *schemaNode
	bounds     []schemaBound
	pattern    *regexp.Regexp
	allOf      []*schemaNode
	ifS        *schemaNode
	thenS      *schemaNode
	elseS      *schemaNode
}

// schemaTypes is a set of JSON Schema types, one bit each; empty means
// any type.
type schemaTypes uint8

const (
	typeNull schemaTypes = 1 << iota
	typeBoolean
	typeNumber
	typeInteger
	typeString
	typeArray
	typeObject
)

var schemaTypeNames = map[string]schemaTypes{
	"null": typeNull, "boolean": typeBoolean, "number": typeNumber, "integer": typeInteger,
	"string": typeString, "array": typeArray, "object": typeObject,
}

// kindType is the type of a JSON value of kind k; an integral number is
// also an integer, which the type check handles.
var kindType = [...]schemaTypes{
	jsonNull: typeNull, jsonBool: typeBoolean, jsonNumber: typeNumber,
	jsonString: typeString, jsonArray: typeArray, jsonObject: typeObject,
}

// schemaBound is one of minimum, maximum, exclusiveMinimum and
// exclusiveMaximum.
type schemaBound struct {
	keyword string
	limit   decimal
	text    string // the limit as written in the schema
}

// holds reports whether a number n is within the bound.
func (b schemaBound) holds(n decimal) bool {
	c := n.cmp(b.limit)
	switch b.keyword {
	case "minimum":
		return c >= 0
	case "maximum":
		return c <= 0
	case "exclusiveMinimum":
		return c > 0
	default: // exclusiveMaximum
		return c < 0
	}
}

// describe says what the bound requires, for a message.
func (b schemaBound) describe() string {
	switch b.keyword {
	case "minimum":
		return "at least " + b.text
	case "maximum":
		return "at most " + b.text
	case "exclusiveMinimum":
		return "greater than " + b.text
	default:
		return "less than " + b.text
	}
}

// compiledSchema compiles Schema once, the first time a file is checked
// against it.
var compiledSchema = sync.OnceValues(func() (*schemaNode, error) {
	return compileSchema(Schema())
})

// schemaCompiler holds what compiling one schema document needs.
type schemaCompiler struct {
	defs  map[string]*schemaNode
	refs  []pendingRef
	nodes []*schemaNode
}

// pendingRef is a $ref waiting for $defs to be compiled.
type pendingRef struct {
	node *schemaNode
	name string // the name under $defs
	at   string // where the $ref is, for errors
}

// compileSchema compiles a schema document. It fails on anything it does
// not interpret exactly: an unknown keyword, a keyword with a value of the
// wrong form, a reference other than "#/$defs/<name>", another dialect.
func compileSchema(data []byte) (*schemaNode, error) {
	r := newReporter("schema", data)
	doc, ok := parseJSON(data, r)
	if !ok {
		return nil, fmt.Errorf("hooks.json schema: %s", r.problems[0].Error())
	}
	c := &schemaCompiler{defs: map[string]*schemaNode{}}
	root, err := c.compile(doc, "")
	if err != nil {
		return nil, fmt.Errorf("hooks.json schema: %w", err)
	}
	for _, p := range c.refs {
		target, ok := c.defs[p.name]
		if !ok {
			return nil, fmt.Errorf("hooks.json schema: at %s: $ref to %q, which $defs does not define", p.at, p.name)
		}
		p.node.ref = target
	}
	if err := checkRefCycles(c.nodes); err != nil {
		return nil, fmt.Errorf("hooks.json schema: %w", err)
	}
	return root, nil
}

// compile compiles the schema n found at the schema pointer at.
func (c *schemaCompiler) compile(n *jsonNode, at string) (*schemaNode, error) {
	s := &schemaNode{}
	c.nodes = append(c.nodes, s)
	switch n.kind {
	case jsonBool:
		s.reject = !n.boolean
		return s, nil
	case jsonObject:
	default:
		return nil, fmt.Errorf("at %s: a schema must be an object or a boolean, not %s", pointerOrRoot(at), n.kind)
	}
	for _, m := range n.members {
		kwAt := pointerJoin(at, m.key)
		if err := c.keyword(s, m.key, m.value, at, kwAt); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// keyword compiles one keyword of the schema s at at into s.
func (c *schemaCompiler) keyword(s *schemaNode, key string, v *jsonNode, at, kwAt string) error {
	wrong := func(want string) error {
		return fmt.Errorf("at %s: %s must be %s, not %s", kwAt, key, want, v.kind)
	}
	switch key {
	case "$schema":
		if v.kind != jsonString || v.str != SchemaURL || at != "" {
			return fmt.Errorf("at %s: only the root may name a dialect, and only %s", kwAt, SchemaURL)
		}
	case "$id":
		if v.kind != jsonString || at != "" {
			return fmt.Errorf("at %s: only the root may have an $id, a string", kwAt)
		}
	case "title", "description", "format":
		// Annotations: format too, as draft 2020-12 has it by default.
		if v.kind != jsonString {
			return wrong("a string")
		}
	case "default":
	case "$defs":
		if at != "" {
			return fmt.Errorf("at %s: only the root may have $defs", kwAt)
		}
		if v.kind != jsonObject {
			return wrong("an object")
		}
		for _, m := range v.members {
			d, err := c.compile(m.value, pointerJoin(kwAt, m.key))
			if err != nil {
				return err
			}
			c.defs[m.key] = d
		}
	case "$ref":
		name, ok := strings.CutPrefix(v.str, "#/$defs/")
		if v.kind != jsonString || !ok || strings.ContainsAny(name, "/%") {
			return fmt.Errorf(`at %s: only references of the form "#/$defs/<name>" are supported, not %s`, kwAt, v.describe())
		}
		c.refs = append(c.refs, pendingRef{node: s, name: unescapePointer(name), at: kwAt})
	case "type":
		return s.compileType(v, kwAt)
	case "properties":
		if v.kind != jsonObject {
			return wrong("an object")
		}
		s.properties = make(map[string]*schemaNode, len(v.members))
		for _, m := range v.members {
			p, err := c.compile(m.value, pointerJoin(kwAt, m.key))
			if err != nil {
				return err
			}
			s.properties[m.key] = p
		}
	case "additionalProperties", "items", "if", "then", "else":
		p, err := c.compile(v, kwAt)
		if err != nil {
			return err
		}
		switch key {
		case "additionalProperties":
			s.additional = p
		case "items":
			s.items = p
		case "if":
			s.ifS = p
		case "then":
			s.thenS = p
		default:
			s.elseS = p
		}
	case "allOf":
		if v.kind != jsonArray || len(v.elems) == 0 {
			return wrong("a non-empty array")
		}
		for i, e := range v.elems {
			p, err := c.compile(e, pointerIndex(kwAt, i))
			if err != nil {
				return err
			}
			s.allOf = append(s.allOf, p)
		}
	case "required":
		if v.kind != jsonArray {
			return wrong("an array of strings")
		}
		for _, e := range v.elems {
			if e.kind != jsonString {
				return fmt.Errorf("at %s: required must list strings, not %s", kwAt, e.kind)
			}
			s.required = append(s.required, e.str)
		}
	case "enum":
		if v.kind != jsonArray || len(v.elems) == 0 {
			return wrong("a non-empty array")
		}
		s.enum = v.elems
	case "const":
		s.constVal = v
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		d, ok := parseDecimal(v.str)
		if v.kind != jsonNumber || !ok {
			return wrong("a number")
		}
		s.bounds = append(s.bounds, schemaBound{keyword: key, limit: d, text: v.str})
	case "pattern":
		if v.kind != jsonString {
			return wrong("a string")
		}
		re, err := regexp.Compile(v.str)
		if err != nil {
			return fmt.Errorf("at %s: %w", kwAt, err)
		}
		s.pattern = re
	default:
		return fmt.Errorf("at %s: keyword %q is not supported by agenthooks' schema checker; teach config/schema_check.go to interpret it", kwAt, key)
	}
	return nil
}

// compileType reads the type keyword: a type name or an array of them.
func (s *schemaNode) compileType(v *jsonNode, at string) error {
	names := []*jsonNode{v}
	if v.kind == jsonArray {
		names = v.elems
	}
	for _, e := range names {
		t, ok := schemaTypeNames[e.str]
		if e.kind != jsonString || !ok || s.types&t != 0 {
			return fmt.Errorf("at %s: type must be a type name or an array of distinct ones, not %s", at, e.describe())
		}
		s.types |= t
		s.typeNames = append(s.typeNames, e.str)
	}
	if len(names) == 0 {
		return fmt.Errorf("at %s: type must list at least one type", at)
	}
	return nil
}

// checkRefCycles fails when a schema can reach itself without moving into
// the value (through $ref, allOf, if, then, else): checking would never end.
func checkRefCycles(nodes []*schemaNode) error {
	const (
		unseen = iota
		open
		done
	)
	state := make(map[*schemaNode]int, len(nodes))
	var visit func(s *schemaNode) bool
	visit = func(s *schemaNode) bool {
		switch state[s] {
		case open:
			return false
		case done:
			return true
		}
		state[s] = open
		next := append([]*schemaNode{s.ref, s.ifS, s.thenS, s.elseS}, s.allOf...)
		for _, n := range next {
			if n != nil && !visit(n) {
				return false
			}
		}
		state[s] = done
		return true
	}
	for _, s := range nodes {
		if !visit(s) {
			return fmt.Errorf("$ref cycle: a schema refers to itself without descending into the value")
		}
	}
	return nil
}

// schemaViolation is one keyword a value fails.
type schemaViolation struct {
	pointer string    // JSON pointer to the value
	node    *jsonNode // the value, for its position
	message string
}

// check returns every violation of s by the document doc.
func (s *schemaNode) check(doc *jsonNode) []schemaViolation {
	var out []schemaViolation
	s.validate(doc, "", &out)
	return out
}

// validate appends the violations of s by the value n, found at pointer
// ptr, to out. As in the reference validator, a value of the wrong type,
// or not the const or in the enum, gets that violation only.
func (s *schemaNode) validate(n *jsonNode, ptr string, out *[]schemaViolation) {
	fail := func(msg string) { *out = append(*out, schemaViolation{pointer: ptr, node: n, message: msg}) }
	if s.reject {
		fail("no value is allowed here")
		return
	}
	if s.types != 0 && !s.types.admit(n) {
		fail("must be " + typeList(s.typeNames) + ", got " + n.describe())
		return
	}
	if s.constVal != nil && !jsonEqual(n, s.constVal) {
		fail("must be " + s.constVal.describe() + ", got " + n.describe())
		return
	}
	if s.enum != nil && !s.inEnum(n) {
		fail("must be one of " + describeAll(s.enum) + ", got " + n.describe())
		return
	}
	if s.ref != nil {
		s.ref.validate(n, ptr, out)
	}
	switch n.kind {
	case jsonObject:
		s.validateObject(n, ptr, fail, out)
	case jsonArray:
		if s.items != nil {
			for i, e := range n.elems {
				s.items.validate(e, pointerIndex(ptr, i), out)
			}
		}
	case jsonString:
		if s.pattern != nil && !s.pattern.MatchString(n.str) {
			fail("must match the regular expression " + s.pattern.String() + ", got " + n.describe())
		}
	case jsonNumber:
		if len(s.bounds) > 0 {
			d, _ := parseDecimal(n.str) // the parser admits only JSON numbers
			for _, b := range s.bounds {
				if !b.holds(d) {
					fail("must be " + b.describe() + ", got " + n.describe())
				}
			}
		}
	}
	for _, a := range s.allOf {
		a.validate(n, ptr, out)
	}
	if s.ifS != nil {
		var probe []schemaViolation
		s.ifS.validate(n, ptr, &probe)
		switch {
		case len(probe) == 0 && s.thenS != nil:
			s.thenS.validate(n, ptr, out)
		case len(probe) > 0 && s.elseS != nil:
			s.elseS.validate(n, ptr, out)
		}
	}
}

// validateObject checks required, properties and additionalProperties.
func (s *schemaNode) validateObject(n *jsonNode, ptr string, fail func(string), out *[]schemaViolation) {
	var missing []string
	for _, r := range s.required {
		if _, ok := n.get(r); !ok {
			missing = append(missing, strconv.Quote(r))
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		fail("missing required property " + missing[0])
	default:
		fail("missing required properties " + strings.Join(missing, ", "))
	}
	var extra []string
	for _, m := range n.members {
		p, ok := s.properties[m.key]
		if !ok {
			p = s.additional
		}
		switch {
		case p == nil:
		case !ok && p.reject:
			extra = append(extra, strconv.Quote(m.key))
		default:
			p.validate(m.value, pointerJoin(ptr, m.key), out)
		}
	}
	if len(extra) > 0 {
		fail("unknown properties are not allowed: " + strings.Join(extra, ", "))
	}
}

// admit reports whether n has one of the types; "integer" admits a
// number with no fractional part, however it is written (5, 5.0, 5e0).
func (t schemaTypes) admit(n *jsonNode) bool {
	if t&kindType[n.kind] != 0 {
		return true
	}
	if n.kind == jsonNumber && t&typeInteger != 0 {
		d, _ := parseDecimal(n.str)
		return d.isInt()
	}
	return false
}

func (s *schemaNode) inEnum(n *jsonNode) bool {
	for _, e := range s.enum {
		if jsonEqual(n, e) {
			return true
		}
	}
	return false
}

// typeList says "a string", "an integer or null".
func typeList(names []string) string {
	words := make([]string, len(names))
	for i, name := range names {
		switch name {
		case "null":
			words[i] = name
		case "integer", "object", "array":
			words[i] = "an " + name
		default:
			words[i] = "a " + name
		}
	}
	return strings.Join(words, " or ")
}

func describeAll(ns []*jsonNode) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = n.describe()
	}
	return strings.Join(parts, ", ")
}

// jsonEqual is JSON Schema equality: numbers by value (1 equals 1.0),
// objects regardless of member order.
func jsonEqual(a, b *jsonNode) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case jsonNull:
		return true
	case jsonBool:
		return a.boolean == b.boolean
	case jsonString:
		return a.str == b.str
	case jsonNumber:
		x, _ := parseDecimal(a.str)
		y, _ := parseDecimal(b.str)
		return x.cmp(y) == 0
	case jsonArray:
		if len(a.elems) != len(b.elems) {
			return false
		}
		for i := range a.elems {
			if !jsonEqual(a.elems[i], b.elems[i]) {
				return false
			}
		}
		return true
	default:
		if len(a.members) != len(b.members) {
			return false
		}
		for _, m := range a.members {
			o, ok := b.get(m.key)
			if !ok || !jsonEqual(m.value, o.value) {
				return false
			}
		}
		return true
	}
}

func pointerOrRoot(ptr string) string {
	if ptr == "" {
		return "the root"
	}
	return ptr
}

// decimal is the exact value of a JSON number literal, so that bounds
// and integrality are decided on what was written, not on its nearest
// float64 (9223372035.9999999999 is below 9223372036; 1e400 is an
// integer): 0.digits × 10^exp, negated when neg.
type decimal struct {
	neg    bool
	digits string // significant digits, without leading or trailing zeros; "" is zero
	exp    int64
}

// maxDecimalExp bounds exponents so that arithmetic on them cannot
// overflow; numbers beyond 10^±1e15 compare as if at that bound.
const maxDecimalExp = 1e15

// parseDecimal reads a number in JSON syntax.
func parseDecimal(lit string) (decimal, bool) {
	var d decimal
	s := lit
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	}
	mant, expText := s, ""
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expText = s[:i], s[i+1:]
		if expText == "" {
			return decimal{}, false
		}
	}
	whole, frac, dot := strings.Cut(mant, ".")
	if whole == "" || (dot && frac == "") || !allDigits(whole) || !allDigits(frac) {
		return decimal{}, false
	}
	e, ok := parseExponent(expText)
	if !ok {
		return decimal{}, false
	}
	all := whole + frac
	trimmed := strings.TrimLeft(all, "0")
	point := int64(len(whole)) - int64(len(all)-len(trimmed))
	d.digits = strings.TrimRight(trimmed, "0")
	if d.digits == "" {
		return decimal{}, true // zero, whatever its sign
	}
	d.exp = max(min(point+e, maxDecimalExp), -maxDecimalExp)
	return d, true
}

// parseExponent reads the digits after e, with an optional sign,
// saturating at ±maxDecimalExp; "" is 0.
func parseExponent(s string) (int64, bool) {
	neg := strings.HasPrefix(s, "-")
	if neg || strings.HasPrefix(s, "+") {
		s = s[1:]
		if s == "" {
			return 0, false
		}
	}
	if !allDigits(s) {
		return 0, false
	}
	var e int64
	for _, c := range s {
		e = min(e*10+int64(c-'0'), maxDecimalExp)
	}
	if neg {
		e = -e
	}
	return e, true
}

func allDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// sign is -1, 0 or 1.
func (d decimal) sign() int {
	switch {
	case d.digits == "":
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// cmp compares d and o: -1, 0 or 1.
func (d decimal) cmp(o decimal) int {
	if ds, os := d.sign(), o.sign(); ds != os || ds == 0 {
		return cmp.Compare(ds, os)
	}
	c := cmp.Compare(d.exp, o.exp)
	if c == 0 {
		// Same magnitude: the digits decide, a missing digit being 0.
		c = strings.Compare(d.digits, o.digits)
	}
	if d.neg {
		c = -c
	}
	return c
}

// isInt reports whether d has no fractional part.
func (d decimal) isInt() bool {
	return d.digits == "" || int64(len(d.digits)) <= d.exp
}
