package apidoc

import (
	"fmt"
	"strings"
)

// scalars are the proto types a JSON client writes as they are; the
// rest are messages of the file.
var scalars = map[string]string{
	"string": "string", "bool": "bool", "double": "number", "int32": "integer",
	"int64": "int64 (JSON answers write it as a string)",
}

// Render is the API reference of the proto source src, from Begin to
// End inclusive.
func Render(src string) (string, error) {
	f, err := parse(src)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(Begin + "\n\n")
	b.WriteString("Each method is a POST to `/agenthooks.team.v1.<Service>/<Method>`. Field names are written as in the\n")
	b.WriteString("proto or in lowerCamelCase; a field the method does not define, or a value of the wrong type, is\n")
	b.WriteString("`invalid_argument` naming it.\n")
	seen := map[string]bool{}
	var order []string
	var visit func(name string)
	visit = func(name string) {
		m, ok := f.messages[name]
		if !ok || seen[name] {
			return
		}
		seen[name] = true
		order = append(order, name)
		for _, fd := range m.fields {
			visit(fd.typ)
		}
	}
	for _, s := range f.services {
		fmt.Fprintf(&b, "\n### %s\n", s.name)
		if s.doc != "" {
			fmt.Fprintf(&b, "\n%s\n", s.doc)
		}
		for _, m := range s.methods {
			fmt.Fprintf(&b, "\n#### %s.%s\n\n", s.name, m.name)
			if m.doc != "" {
				fmt.Fprintf(&b, "%s\n\n", m.doc)
			}
			for _, part := range []struct{ label, name string }{{"Request", m.req}, {"Answer", m.resp}} {
				msg, ok := f.messages[part.name]
				if !ok {
					return "", fmt.Errorf("team.proto: %s.%s names %s, which is not a message of the file", s.name, m.name, part.name)
				}
				fmt.Fprintf(&b, "%s `%s`", part.label, part.name)
				if msg.doc != "" {
					fmt.Fprintf(&b, ": %s", msg.doc)
				}
				if len(msg.fields) == 0 {
					b.WriteString(" has no fields.\n\n")
					continue
				}
				b.WriteString("\n")
				b.WriteString("\n")
				writeFields(&b, f, msg)
				b.WriteString("\n")
				for _, fd := range msg.fields {
					visit(fd.typ)
				}
			}
		}
	}
	if len(order) > 0 {
		b.WriteString("\n### Messages\n")
		for _, name := range order {
			m := f.messages[name]
			fmt.Fprintf(&b, "\n#### %s\n\n", name)
			if m.doc != "" {
				fmt.Fprintf(&b, "%s\n\n", m.doc)
			}
			writeFields(&b, f, m)
		}
	}
	b.WriteString("\n" + End)
	out := b.String()
	for strings.Contains(out, "\n\n\n") {
		out = strings.ReplaceAll(out, "\n\n\n", "\n\n")
	}
	return out, nil
}

func writeFields(b *strings.Builder, f *file, m *message) {
	b.WriteString("| field | JSON | type | # | meaning |\n|---|---|---|---|---|\n")
	for _, fd := range m.fields {
		typ, ok := scalars[fd.typ]
		if !ok {
			typ = fmt.Sprintf("[%s](#%s)", fd.typ, strings.ToLower(fd.typ))
			if _, known := f.messages[fd.typ]; !known {
				typ = fd.typ
			}
		}
		if fd.repeated {
			typ = "list of " + typ
		}
		fmt.Fprintf(b, "| `%s` | `%s` | %s | %s | %s |\n", fd.name, lowerCamel(fd.name), typ, fd.number, strings.ReplaceAll(fd.doc, "|", `\|`))
	}
}

// lowerCamel is the JSON name protobuf gives a field name.
func lowerCamel(name string) string {
	var b strings.Builder
	up := false
	for _, r := range name {
		if r == '_' {
			up = true
			continue
		}
		if up && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		up = false
		b.WriteRune(r)
	}
	return b.String()
}

// Splice replaces the section from Begin to End in doc by section.
func Splice(doc, section string) (string, error) {
	i := strings.Index(doc, Begin)
	j := strings.Index(doc, End)
	if i < 0 || j < i {
		return "", fmt.Errorf("docs/team.md has no section marked %q … %q", Begin, End)
	}
	return doc[:i] + section + doc[j+len(End):], nil
}
