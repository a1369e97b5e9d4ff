package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"strings"

	"github.com/tailscale/hujson"
)

// Editing an agent's settings file in place. The file is parsed as a
// syntax tree that keeps every byte (comments and trailing commas too, as
// Gemini CLI's settings allow them), groups are added to or removed from
// hooks.<Event> arrays, and the tree is packed again: what was not touched
// comes out byte for byte as it went in.

// SettingsDoc is a parsed settings file.
type SettingsDoc struct {
	root hujson.Value
	unit string // one level of indentation, as the file has it
}

func ParseSettings(data []byte) (*SettingsDoc, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, fmt.Errorf("the file must hold a JSON object")
	}
	d := &SettingsDoc{root: v, unit: "  "}
	if len(obj.Members) > 0 {
		ws := string(obj.Members[0].Name.BeforeExtra)
		if i := strings.LastIndexByte(ws, '\n'); i >= 0 && strings.Trim(ws[i+1:], " \t") == "" && ws[i+1:] != "" {
			d.unit = ws[i+1:]
		}
	}
	return d, nil
}

func (d *SettingsDoc) Pack() []byte { return d.root.Pack() }

// HooksObject returns the "hooks" object, creating it when create is set;
// nil when it is missing or not an object.
func (d *SettingsDoc) HooksObject(create bool) (*hujson.Object, error) {
	root := d.root.Value.(*hujson.Object)
	if m := Member(root, "hooks"); m != nil {
		o, ok := m.Value.Value.(*hujson.Object)
		if !ok {
			return nil, fmt.Errorf(`"hooks" is not an object`)
		}
		return o, nil
	}
	if !create {
		return nil, nil
	}
	if err := d.AddMember(root, 1, "hooks", map[string]any{}); err != nil {
		return nil, err
	}
	return Member(root, "hooks").Value.Value.(*hujson.Object), nil
}

// addGroup appends group to hooks[event], creating the array if needed.
func (d *SettingsDoc) addGroup(event string, group any) error {
	hooks, err := d.HooksObject(true)
	if err != nil {
		return err
	}
	m := Member(hooks, event)
	if m == nil {
		return d.AddMember(hooks, 2, event, []any{group})
	}
	arr, ok := m.Value.Value.(*hujson.Array)
	if !ok {
		return fmt.Errorf(`"hooks.%s" is not an array`, event)
	}
	v, err := d.Value(group, 3)
	if err != nil {
		return err
	}
	AppendValue(&arr.Elements, &arr.AfterExtra, v, d.Indent(3), d.Indent(2))
	return nil
}

// removeHandlers removes, from every hooks.<Event> array, the handlers for
// which ours is true; a group left with no handlers goes too. With prune,
// so does an event array (and the hooks object) left empty by the
// removal; without, they stay for the same hooks to be added back in
// place (a re-install then changes nothing). It reports whether anything
// was removed.
func (d *SettingsDoc) removeHandlers(ours func(map[string]any) bool, prune bool) bool {
	hooks, err := d.HooksObject(false)
	if hooks == nil || err != nil {
		return false
	}
	removed := false
	for i := 0; i < len(hooks.Members); i++ {
		arr, ok := hooks.Members[i].Value.Value.(*hujson.Array)
		if !ok {
			continue
		}
		before := len(arr.Elements)
		for j := 0; j < len(arr.Elements); j++ {
			g, ok := arr.Elements[j].Value.(*hujson.Object)
			if !ok {
				continue
			}
			list := Member(g, "hooks")
			if list == nil {
				continue
			}
			hs, ok := list.Value.Value.(*hujson.Array)
			if !ok {
				continue
			}
			n := len(hs.Elements)
			hs.Elements = DeleteWhere(hs.Elements, &hs.AfterExtra, func(v *hujson.Value) bool {
				var h map[string]any
				return json.Unmarshal(Standard(*v), &h) == nil && ours(h)
			})
			if len(hs.Elements) == n {
				continue
			}
			removed = true
			if len(hs.Elements) == 0 {
				arr.Elements = deleteIndex(arr.Elements, &arr.AfterExtra, j)
				j--
			}
		}
		if prune && before > 0 && len(arr.Elements) == 0 {
			hooks.Members = DeleteMemberIndex(hooks.Members, &hooks.AfterExtra, i)
			i--
		}
	}
	if prune && removed && len(hooks.Members) == 0 {
		root := d.root.Value.(*hujson.Object)
		for i, m := range root.Members {
			if m.Name.Value.(hujson.Literal).String() == "hooks" {
				root.Members = DeleteMemberIndex(root.Members, &root.AfterExtra, i)
				break
			}
		}
	}
	return removed
}

// AddMember appends "key": value to obj at the given depth.
func (d *SettingsDoc) AddMember(obj *hujson.Object, depth int, key string, value any) error {
	v, err := d.Value(value, depth)
	if err != nil {
		return err
	}
	name, err := hujson.Parse(MustJSON(key))
	if err != nil {
		return err
	}
	name.BeforeExtra = hujson.Extra("\n" + d.Indent(depth))
	v.BeforeExtra = hujson.Extra(" ")
	trailing := len(obj.Members) > 0 && obj.Members[len(obj.Members)-1].Value.AfterExtra != nil
	if trailing {
		v.AfterExtra = hujson.Extra{}
	}
	obj.Members = append(obj.Members, hujson.ObjectMember{Name: name, Value: v})
	if len(obj.Members) == 1 {
		obj.AfterExtra = hujson.Extra("\n" + d.Indent(depth-1))
	}
	return nil
}

// Value encodes v as indented JSON for the given depth.
func (d *SettingsDoc) Value(v any, depth int) (hujson.Value, error) {
	b, err := jsonplain.MarshalIndent(v, d.Indent(depth), d.unit)
	if err != nil {
		return hujson.Value{}, err
	}
	return hujson.Parse(b)
}

func (d *SettingsDoc) Indent(depth int) string { return strings.Repeat(d.unit, depth) }

// AppendValue appends v to a list of elements, keeping the list's style:
// each element on its own line, a trailing comma if the list had one.
func AppendValue(elems *[]hujson.Value, after *hujson.Extra, v hujson.Value, indent, closeIndent string) {
	v.BeforeExtra = hujson.Extra("\n" + indent)
	if n := len(*elems); n > 0 && (*elems)[n-1].AfterExtra != nil {
		v.AfterExtra = hujson.Extra{}
	}
	*elems = append(*elems, v)
	if len(*elems) == 1 {
		*after = hujson.Extra("\n" + closeIndent)
	}
}

// DeleteWhere removes the elements for which del is true.
func DeleteWhere(elems []hujson.Value, after *hujson.Extra, del func(*hujson.Value) bool) []hujson.Value {
	for i := 0; i < len(elems); i++ {
		if del(&elems[i]) {
			elems = deleteIndex(elems, after, i)
			i--
		}
	}
	return elems
}

// deleteIndex removes element i. The last element's lack of a trailing
// comma moves to the new last one; an emptied list closes on its line.
func deleteIndex(elems []hujson.Value, after *hujson.Extra, i int) []hujson.Value {
	last := i == len(elems)-1
	trailing := elems[i].AfterExtra
	elems = append(elems[:i], elems[i+1:]...)
	if last && len(elems) > 0 {
		elems[len(elems)-1].AfterExtra = keepComma(elems[len(elems)-1].AfterExtra, trailing)
	}
	if len(elems) == 0 {
		*after = nil
	}
	return elems
}

// keepComma is the AfterExtra of a new last element: a trailing comma (a
// non-nil AfterExtra) exactly when the removed last element had one.
func keepComma(extra, removed hujson.Extra) hujson.Extra {
	if removed == nil {
		return nil
	}
	if extra == nil {
		return hujson.Extra{}
	}
	return extra
}

func DeleteMemberIndex(ms []hujson.ObjectMember, after *hujson.Extra, i int) []hujson.ObjectMember {
	last := i == len(ms)-1
	trailing := ms[i].Value.AfterExtra
	ms = append(ms[:i], ms[i+1:]...)
	if last && len(ms) > 0 {
		ms[len(ms)-1].Value.AfterExtra = keepComma(ms[len(ms)-1].Value.AfterExtra, trailing)
	}
	if len(ms) == 0 {
		*after = nil
	}
	return ms
}

// Member finds the member named key.
func Member(obj *hujson.Object, key string) *hujson.ObjectMember {
	for i := range obj.Members {
		if lit, ok := obj.Members[i].Name.Value.(hujson.Literal); ok && lit.String() == key {
			return &obj.Members[i]
		}
	}
	return nil
}

// Standard packs a value as plain JSON, for decoding.
func Standard(v hujson.Value) []byte {
	c := v.Clone()
	c.Standardize()
	return c.Pack()
}

// MustJSON encodes a string or other plain value on one line, without
// HTML escaping: a PowerShell command's & stays &.
func MustJSON(v any) []byte {
	b, err := jsonplain.Marshal(v)
	if err != nil {
		return []byte(`""`)
	}
	return b
}

// ReadSettingsDoc reads and parses the JSON settings file an agent's gate
// lives in (Copilot CLI's config.json, Gemini CLI's trustedFolders.json):
// the document, its top-level object, and whether the file exists (a
// missing file is an empty document).
func ReadSettingsDoc(path string) (*SettingsDoc, *hujson.Object, bool, error) {
	data, exists, err := ReadFile(path)
	if err != nil {
		return nil, nil, false, err
	}
	doc, err := ParseSettings(data)
	if err != nil {
		return nil, nil, exists, fmt.Errorf("%s: %w", path, err)
	}
	return doc, doc.root.Value.(*hujson.Object), exists, nil
}

// ReadGateDoc is readSettingsDoc for taking back what install recorded
// for hooksPath: a file gone since has nothing left to take back, so its
// ledger entries go and doc is nil.
func ReadGateDoc(path, hooksPath string, l *Ledger) (*SettingsDoc, *hujson.Object, error) {
	doc, root, exists, err := ReadSettingsDoc(path)
	if err != nil {
		return nil, nil, err
	}
	if !exists {
		l.Remove(hooksPath, func(LedgerEntry) bool { return true })
		return nil, nil, nil
	}
	return doc, root, nil
}
