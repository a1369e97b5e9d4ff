package install

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Editing Codex's config.toml in place. Codex keeps the user's own
// settings there (models, providers, MCP servers, comments), so a trust
// entry is written by changing only the bytes of that one entry: a string
// value replaced where it stands, a line added under its table, or a new
// table appended at the end. Every edit is checked by parsing the result
// as TOML and reading the value back; an edit that would make the file
// invalid (the table defined another way, say inline) is refused, with the
// setting to make by hand.

// tomlKV is a key = "string" line of the file, outside array tables.
type tomlKV struct {
	path  []string
	value string
	// raw is the value's bytes (quotes included); line the whole line,
	// its newline included.
	raw, line [2]int
	// simple: the line holds this one key-value and nothing else, so it
	// can be removed whole.
	simple bool
}

// tomlTable is a [table] header.
type tomlTable struct {
	path []string
	// line is the header line, its newline included; end is where its
	// section ends (the next header, or the end of the file).
	line [2]int
	end  int
}

// tomlDoc is what the edits need to know of a file.
type tomlDoc struct {
	data   []byte
	kvs    []tomlKV
	tables []tomlTable
}

func parseTOML(data []byte) (*tomlDoc, error) {
	// The semantic check first: the scanner below does not see a key
	// defined twice.
	var v map[string]any
	if err := toml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("not valid TOML: %w", err)
	}
	d := &tomlDoc{data: data}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	inArray := false
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable:
			path, start := keyPath(n.Key())
			if len(d.tables) > 0 {
				d.tables[len(d.tables)-1].end = lineStart(data, start)
			}
			table, inArray = path, n.Kind == unstable.ArrayTable
			if !inArray {
				ls := lineStart(data, start)
				d.tables = append(d.tables, tomlTable{path: path, line: [2]int{ls, lineEnd(data, start)}})
			} else {
				// The section of the table before it ends here too.
				d.tables = append(d.tables, tomlTable{path: nil, line: [2]int{lineStart(data, start), lineEnd(data, start)}})
			}
		case unstable.KeyValue:
			if inArray {
				continue
			}
			val := n.Value()
			if val.Kind != unstable.String {
				continue
			}
			key, _ := keyPath(n.Key())
			start, end := int(n.Raw.Offset), int(n.Raw.Offset+n.Raw.Length)
			ls, le := lineStart(data, start), lineEnd(data, end)
			rest := strings.TrimSpace(string(data[end:le]))
			d.kvs = append(d.kvs, tomlKV{
				path:   append(slices.Clone(table), key...),
				value:  string(val.Data),
				raw:    [2]int{int(val.Raw.Offset), int(val.Raw.Offset + val.Raw.Length)},
				line:   [2]int{ls, le},
				simple: strings.TrimSpace(string(data[ls:start])) == "" && rest == "",
			})
		}
	}
	if err := p.Error(); err != nil {
		return nil, fmt.Errorf("not valid TOML: %w", err)
	}
	if len(d.tables) > 0 {
		d.tables[len(d.tables)-1].end = len(data)
	}
	return d, nil
}

// keyPath is a key's parts and the offset of its first byte.
func keyPath(it unstable.Iterator) ([]string, int) {
	var out []string
	start := -1
	for it.Next() {
		k := it.Node()
		if start < 0 {
			start = int(k.Raw.Offset)
		}
		out = append(out, string(k.Data))
	}
	return out, start
}

func lineStart(data []byte, i int) int {
	return bytes.LastIndexByte(data[:i], '\n') + 1
}

func lineEnd(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(data)
}

// TOMLGet returns the string at path, read as TOML reads it (so a value
// set inline or by a dotted key counts too).
func TOMLGet(data []byte, path []string) (string, bool) {
	var v map[string]any
	if toml.Unmarshal(data, &v) != nil {
		return "", false
	}
	var cur any = v
	for _, k := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return "", false
		}
		cur, ok = m[k]
		if !ok {
			return "", false
		}
	}
	s, ok := cur.(string)
	return s, ok
}

func (d *tomlDoc) kv(path []string) *tomlKV {
	for i := range d.kvs {
		if slices.Equal(d.kvs[i].path, path) {
			return &d.kvs[i]
		}
	}
	return nil
}

func (d *tomlDoc) table(path []string) *tomlTable {
	for i := range d.tables {
		if d.tables[i].path != nil && slices.Equal(d.tables[i].path, path) {
			return &d.tables[i]
		}
	}
	return nil
}

// TOMLEdit says how a value came to be set, for taking it back.
type TOMLEdit struct {
	// Previous is the value replaced; nil when the key was added.
	Previous *string `json:"previous,omitempty"`
	// NewTable: the key's table was appended for it.
	NewTable bool `json:"new_table,omitempty"`
	// AddedEOL: the file did not end with a newline; one was added
	// before the table.
	AddedEOL bool `json:"added_eol,omitempty"`
}

// TOMLSet sets the string at path (a table path and a key) and returns
// the new file and how it was changed.
func TOMLSet(data []byte, path []string, value string) ([]byte, TOMLEdit, error) {
	d, err := parseTOML(data)
	if err != nil {
		return nil, TOMLEdit{}, err
	}
	var out []byte
	var edit TOMLEdit
	line := TOMLKey(path[len(path)-1:]) + " = " + TOMLString(value) + "\n"
	if kv := d.kv(path); kv != nil {
		prev := kv.value
		edit.Previous = &prev
		out = splice(data, kv.raw[0], kv.raw[1], TOMLString(value))
	} else if t := d.table(path[:len(path)-1]); t != nil {
		out = splice(data, t.line[1], t.line[1], ensureEOL(data[:t.line[1]], line))
	} else {
		edit.NewTable = true
		var b bytes.Buffer
		b.Write(data)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			b.WriteByte('\n')
			edit.AddedEOL = true
		}
		if len(data) > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("[" + TOMLKey(path[:len(path)-1]) + "]\n" + line)
		out = b.Bytes()
	}
	if got, ok := TOMLGet(out, path); !ok || got != value {
		return nil, TOMLEdit{}, fmt.Errorf("%s is set in a way agenthooks does not edit (inline or by a dotted key)", TOMLKey(path))
	}
	return out, edit, nil
}

// ensureEOL is line, after a newline when before does not end with one.
func ensureEOL(before []byte, line string) string {
	if len(before) > 0 && before[len(before)-1] != '\n' {
		return "\n" + line
	}
	return line
}

// TOMLUnset takes back a tomlSet whose value is still value: the old
// value is put back, or the line removed (with its table, when the set
// appended the table and nothing else was added to it since). A value
// changed since is left alone: it is the user's now.
func TOMLUnset(data []byte, path []string, value string, edit TOMLEdit) ([]byte, bool, error) {
	d, err := parseTOML(data)
	if err != nil {
		return nil, false, err
	}
	kv := d.kv(path)
	if kv == nil || kv.value != value {
		return data, false, nil
	}
	if edit.Previous != nil {
		return splice(data, kv.raw[0], kv.raw[1], TOMLString(*edit.Previous)), true, nil
	}
	if !kv.simple {
		return data, false, nil
	}
	start, end := kv.line[0], kv.line[1]
	if t := d.table(path[:len(path)-1]); edit.NewTable && t != nil &&
		len(bytes.TrimSpace(data[t.line[1]:start])) == 0 && len(bytes.TrimSpace(data[end:t.end])) == 0 {
		start, end = t.line[0], t.end
		// The blank line that set off the appended table.
		if start >= 2 && data[start-1] == '\n' && data[start-2] == '\n' {
			start--
		}
		if edit.AddedEOL && end == len(data) && start >= 1 && data[start-1] == '\n' {
			start--
		}
	}
	return splice(data, start, end, ""), true, nil
}

func splice(data []byte, start, end int, insert string) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(insert))
	out = append(out, data[:start]...)
	out = append(out, insert...)
	return append(out, data[end:]...)
}

// TOMLKey writes a dotted key, quoting the parts that need it.
func TOMLKey(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = p
		if p == "" || strings.IndexFunc(p, func(r rune) bool {
			return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
		}) >= 0 {
			parts[i] = TOMLString(p)
		}
	}
	return strings.Join(parts, ".")
}

// TOMLString is s as a TOML basic string.
func TOMLString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
