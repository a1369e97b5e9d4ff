package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// The reflector below turns the Go types of the file format into a JSON
// Schema. It is small on purpose: it knows the handful of kinds the format
// uses (structs, maps with string keys, slices, strings, numbers, booleans,
// pointers for nullable values) and the tags documented on Document, and
// fails loudly on anything else rather than guessing.

// schemaObject is a JSON object that keeps its keys in insertion order, so
// the generated schema reads top-down ($schema first, properties in field
// order) and is byte-for-byte stable.
type schemaObject struct {
	keys []string
	vals map[string]any
}

// member is one key and value of a schemaObject under construction.
type member struct {
	key string
	val any
}

// kv makes a member: newSchemaObject(kv("type", "string")).
func kv(key string, val any) member { return member{key, val} }

// newSchemaObject builds an object from its members, in order.
func newSchemaObject(members ...member) *schemaObject {
	o := &schemaObject{}
	for _, m := range members {
		o.set(m.key, m.val)
	}
	return o
}

func (o *schemaObject) set(key string, v any) {
	if o.vals == nil {
		o.vals = map[string]any{}
	}
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
}

func (o *schemaObject) get(key string) (any, bool) {
	v, ok := o.vals[key]
	return v, ok
}

func (o *schemaObject) del(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

// MarshalJSON writes the members in insertion order.
func (o *schemaObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(o.vals[k])
		if err != nil {
			return nil, fmt.Errorf("schema key %q: %w", k, err)
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// schemaExtender lets a type add what its tags cannot express.
type schemaExtender interface {
	extendSchema(r *reflector, s *schemaObject)
}

// reflector generates schemas, collecting named composite types under
// $defs so each is described once and referred to by $ref.
type reflector struct {
	defs *schemaObject
	busy map[reflect.Type]bool // definitions being built, for recursion
	err  error
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// generateSchema returns the indented schema whose root is t, with extra
// root keywords (a title, a description) after $schema.
func generateSchema(t reflect.Type, extra ...member) ([]byte, error) {
	r := &reflector{defs: &schemaObject{}, busy: map[reflect.Type]bool{}}
	root := newSchemaObject(append([]member{kv("$schema", SchemaURL)}, extra...)...)
	body := r.inline(t)
	if r.err != nil {
		return nil, r.err
	}
	for _, k := range body.keys {
		root.set(k, body.vals[k])
	}
	if len(r.defs.keys) > 0 {
		root.set("$defs", r.defs)
	}
	b, err := json.MarshalIndent(root, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode schema: %w", err)
	}
	return append(b, '\n'), nil
}

func (r *reflector) fail(format string, a ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("generate hooks.json schema: "+format, a...)
	}
}

// schemaFor returns the schema of a value of type t: a $ref for named
// structs, maps and slices, the schema itself otherwise.
func (r *reflector) schemaFor(t reflect.Type) *schemaObject {
	if t.Name() != "" && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map || t.Kind() == reflect.Slice) {
		return newSchemaObject(kv("$ref", r.ref(t)))
	}
	return r.inline(t)
}

// ref defines t under $defs (once) and returns the reference to it.
func (r *reflector) ref(t reflect.Type) string {
	name := t.Name()
	ref := "#/$defs/" + name
	if _, done := r.defs.get(name); done || r.busy[t] {
		return ref
	}
	r.busy[t] = true
	r.defs.set(name, nil) // reserve the slot: definitions appear in the order first met
	r.defs.set(name, r.inline(t))
	delete(r.busy, t)
	return ref
}

// inline builds the schema of t itself.
func (r *reflector) inline(t reflect.Type) *schemaObject {
	var s *schemaObject
	switch t.Kind() {
	case reflect.Struct:
		s = r.object(t)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			r.fail("%v: map keys must be strings", t)
			return &schemaObject{}
		}
		s = newSchemaObject(kv("type", "object"), kv("additionalProperties", r.schemaFor(t.Elem())))
	case reflect.Slice, reflect.Array:
		s = newSchemaObject(kv("type", "array"), kv("items", r.schemaFor(t.Elem())))
	case reflect.Pointer:
		s = r.inline(t.Elem())
		if typ, ok := s.get("type"); ok {
			if name, ok := typ.(string); ok {
				s.set("type", []string{name, "null"})
				break
			}
		}
		r.fail("%v: only pointers to simple types can be nullable", t)
	case reflect.String:
		s = newSchemaObject(kv("type", "string"))
	case reflect.Bool:
		s = newSchemaObject(kv("type", "boolean"))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s = newSchemaObject(kv("type", "integer"))
	case reflect.Float32, reflect.Float64:
		s = newSchemaObject(kv("type", "number"))
	default:
		r.fail("%v: kind %v has no schema", t, t.Kind())
		return &schemaObject{}
	}
	if e, ok := reflect.Zero(t).Interface().(schemaExtender); ok {
		e.extendSchema(r, s)
	}
	return s
}

// object builds the schema of a struct from its exported fields' tags.
// Unknown properties stay allowed: the loader keeps and warns about them.
func (r *reflector) object(t reflect.Type) *schemaObject {
	props := &schemaObject{}
	var required []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fs := r.schemaFor(f.Type)
		if d := f.Tag.Get("desc"); d != "" {
			fs = withDescription(d, fs)
		}
		r.keywords(t, f, fs)
		props.set(name, fs)
		if !hasOption(opts, "omitempty") {
			required = append(required, name)
		}
	}
	s := newSchemaObject(kv("type", "object"), kv("properties", props))
	if len(required) > 0 {
		s.set("required", required)
	}
	return s
}

// withDescription puts the description first, where a reader looks.
func withDescription(d string, s *schemaObject) *schemaObject {
	out := newSchemaObject(kv("description", d))
	for _, k := range s.keys {
		out.set(k, s.vals[k])
	}
	return out
}

func hasOption(opts, want string) bool {
	for _, o := range strings.Split(opts, ",") {
		if o == want {
			return true
		}
	}
	return false
}

// keywords applies a field's `schema` tag to its schema.
func (r *reflector) keywords(t reflect.Type, f reflect.StructField, fs *schemaObject) {
	tag := f.Tag.Get("schema")
	if tag == "" {
		return
	}
	base := f.Type
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	for _, kv := range strings.Split(tag, ",") {
		key, val, ok := strings.Cut(kv, "=")
		if !ok {
			r.fail("%v.%s: schema keyword %q has no value", t, f.Name, kv)
			continue
		}
		switch key {
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
			if _, err := strconv.ParseFloat(val, 64); err != nil {
				r.fail("%v.%s: %s=%q is not a number", t, f.Name, key, val)
				continue
			}
			fs.set(key, json.Number(val))
		case "default":
			v, err := literal(base, val)
			if err != nil {
				r.fail("%v.%s: default: %v", t, f.Name, err)
				continue
			}
			fs.set(key, v)
		case "enum":
			var vals []any
			for _, e := range strings.Split(val, "|") {
				v, err := literal(base, e)
				if err != nil {
					r.fail("%v.%s: enum: %v", t, f.Name, err)
					continue
				}
				vals = append(vals, v)
			}
			fs.set(key, vals)
		case "pattern", "format":
			fs.set(key, val)
		default:
			r.fail("%v.%s: unknown schema keyword %q", t, f.Name, key)
		}
	}
}

// literal converts a tag's text into a JSON value of the field's type.
func literal(t reflect.Type, s string) (any, error) {
	switch t.Kind() {
	case reflect.String:
		return s, nil
	case reflect.Bool:
		return strconv.ParseBool(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		return json.Number(s), nil
	}
	return nil, fmt.Errorf("no literal of type %v", t)
}
