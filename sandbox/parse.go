package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	suggestpkg "github.com/agenthooks/agenthooks/internal/suggest"
)

// topKeys are the keys of sandbox.json: Cursor's, then agenthooks' own.
var topKeys = []string{
	"type", "additionalReadwritePaths", "additionalReadonlyPaths", "additionalReadPaths",
	"readBoundary", "disableTmpWrite", "enableSharedBuildCache", "networkPolicy", "whenUnavailable",
}

var netKeys = []string{"default", "allow", "deny"}

// Parse reads one sandbox.json. Every problem names the file, the field
// (a JSON pointer, with its line and column) and the fix; an unknown key is
// a warning, so a file written for a newer Cursor still loads.
func Parse(path string, data []byte, layer Layer, root string) *File {
	f := &File{Path: path, Layer: layer, Root: root, Trusted: true}
	pos := positions(data)
	lines := newLines(data)
	problem := func(sev config.Severity, ptr, msg, fix string) {
		p := config.Problem{File: path, Pointer: ptr, Severity: sev, Message: msg, Fix: fix}
		if off, ok := pos[ptr]; ok {
			p.Line, p.Col = lines.at(off)
		}
		f.Problems = append(f.Problems, p)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		msg := "not a JSON object"
		if !json.Valid(data) {
			msg = "not valid JSON"
			if err != nil {
				msg += ": " + err.Error()
			}
		}
		problem(config.Error, "", msg, `write an object, e.g. {"type": "workspace_readwrite", "networkPolicy": {"default": "deny", "allow": ["github.com"]}}`)
		return f
	}
	for _, k := range slices.Sorted(maps.Keys(top)) {
		raw := top[k]
		ptr := "/" + escapePointer(k)
		switch k {
		case "type":
			s, ok := stringIn(raw, string(InsecureNone), string(WorkspaceReadwrite), string(WorkspaceReadonly))
			if !ok {
				problem(config.Error, ptr, "must be \"workspace_readwrite\", \"workspace_readonly\" or \"insecure_none\", got "+short(raw), `use "type": "workspace_readwrite"`)
				continue
			}
			t := Type(s)
			f.Type = &t
		case "readBoundary":
			s, ok := stringIn(raw, ReadSystem, ReadWorkspace)
			if !ok {
				problem(config.Error, ptr, "must be \"system\" or \"workspace\", got "+short(raw), `use "readBoundary": "workspace" to limit reads to the workspace`)
				continue
			}
			f.ReadBoundary = &s
		case "whenUnavailable":
			s, ok := stringIn(raw, UnavailableRefuse, UnavailableRunOpen)
			if !ok {
				problem(config.Error, ptr, "must be \"refuse\" or \"run_unsandboxed\", got "+short(raw), `use "whenUnavailable": "refuse"`)
				continue
			}
			f.WhenUnavailable = &s
		case "disableTmpWrite", "enableSharedBuildCache":
			var b bool
			if !isKind(raw, 't', 'f') || json.Unmarshal(raw, &b) != nil {
				problem(config.Error, ptr, "must be true or false, got "+short(raw), fmt.Sprintf(`use "%s": true`, k))
				continue
			}
			if k == "disableTmpWrite" {
				f.DisableTmpWrite = &b
			} else {
				f.EnableSharedBuildCache = &b
			}
		case "additionalReadwritePaths", "additionalReadonlyPaths", "additionalReadPaths":
			list, ok := stringList(raw, ptr, problem, checkPath)
			if !ok {
				continue
			}
			switch k {
			case "additionalReadwritePaths":
				f.AdditionalReadwritePaths = &list
			case "additionalReadonlyPaths":
				f.AdditionalReadonlyPaths = &list
			default:
				f.AdditionalReadPaths = &list
			}
		case "networkPolicy":
			parseNetwork(f, raw, ptr, problem)
		default:
			problem(config.Warning, ptr, "unknown key, ignored", suggest(k, topKeys))
		}
	}
	if f.Type != nil && *f.Type == WorkspaceReadonly && f.AdditionalReadwritePaths != nil && len(*f.AdditionalReadwritePaths) > 0 {
		problem(config.Warning, "/additionalReadwritePaths", "applies only when type is \"workspace_readwrite\"; with \"workspace_readonly\" these paths stay read-only",
			"remove the list, or use \"type\": \"workspace_readwrite\"")
	}
	return f
}

func parseNetwork(f *File, raw json.RawMessage, ptr string, problem func(config.Severity, string, string, string)) {
	var m map[string]json.RawMessage
	if !isKind(raw, '{') || json.Unmarshal(raw, &m) != nil {
		problem(config.Error, ptr, "must be an object, got "+short(raw), `use "networkPolicy": {"default": "deny", "allow": ["github.com"]}`)
		return
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		kp := ptr + "/" + escapePointer(k)
		switch k {
		case "default":
			s, ok := stringIn(m[k], NetAllow, NetDeny)
			if !ok {
				problem(config.Error, kp, "must be \"allow\" or \"deny\", got "+short(m[k]), `use "default": "deny"`)
				continue
			}
			f.NetDefault = &s
		case "allow", "deny":
			list, ok := stringList(m[k], kp, problem, checkHostPattern)
			if !ok {
				continue
			}
			if k == "allow" {
				f.NetAllow = &list
			} else {
				f.NetDeny = &list
			}
		default:
			problem(config.Warning, kp, "unknown key, ignored", suggest(k, netKeys))
		}
	}
}

// stringList reads an array of strings, checking each with check (which
// returns a problem and its fix, or ""). A bad element is an error and
// leaves the list out: half a list of grants or denials is not what the
// author meant.
func stringList(raw json.RawMessage, ptr string, problem func(config.Severity, string, string, string), check func(string) (string, string)) ([]string, bool) {
	var items []json.RawMessage
	if !isKind(raw, '[') || json.Unmarshal(raw, &items) != nil {
		problem(config.Error, ptr, "must be an array of strings, got "+short(raw), `use e.g. ["/opt/tools"]`)
		return nil, false
	}
	list := make([]string, 0, len(items))
	ok := true
	for i, it := range items {
		ip := fmt.Sprintf("%s/%d", ptr, i)
		var s string
		if !isKind(it, '"') || json.Unmarshal(it, &s) != nil {
			problem(config.Error, ip, "must be a string, got "+short(it), "quote it")
			ok = false
			continue
		}
		if msg, fix := check(s); msg != "" {
			problem(config.Error, ip, msg, fix)
			ok = false
			continue
		}
		list = append(list, s)
	}
	return list, ok
}

// checkPath accepts an absolute path, ~ or ~/…, or a path relative to the
// workspace root.
func checkPath(s string) (string, string) {
	switch {
	case strings.TrimSpace(s) == "":
		return "an empty path", "remove it, or name a folder such as \"/opt/tools\""
	case strings.ContainsRune(s, 0):
		return "a path with a NUL byte", "remove it"
	case strings.HasPrefix(s, "~") && s != "~" && !strings.HasPrefix(s, "~/"):
		return fmt.Sprintf("%q: only ~ and ~/… are expanded, not ~user", s), "write the absolute path"
	}
	return "", ""
}

// checkHostPattern accepts a host name, *.domain, *, an IP address or a
// CIDR block: no scheme, port or path.
func checkHostPattern(s string) (string, string) {
	if s == "*" {
		return "", ""
	}
	if strings.Contains(s, "://") || strings.ContainsAny(s, "/?#@ ") && !isCIDR(s) {
		return fmt.Sprintf("%q is not a host: write the host name alone, without scheme, port or path", s), fmt.Sprintf("use %q", hostOnly(s))
	}
	if _, err := netip.ParseAddr(s); err == nil || isCIDR(s) {
		return "", ""
	}
	h := strings.TrimPrefix(s, "*.")
	if strings.Contains(h, "*") || !validHostname(h) {
		return fmt.Sprintf("%q is not a host name, *.domain, IP address or CIDR block", s), `use e.g. "github.com", "*.npmjs.org" or "10.0.0.0/8"`
	}
	return "", ""
}

func isCIDR(s string) bool { _, err := netip.ParsePrefix(s); return err == nil }

// hostOnly strips a scheme, credentials, port and path from s.
func hostOnly(s string) string {
	if _, rest, ok := strings.Cut(s, "://"); ok {
		s = rest
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if _, rest, ok := strings.Cut(s, "@"); ok {
		s = rest
	}
	if h, _, ok := strings.Cut(s, ":"); ok && !strings.Contains(h, "[") {
		s = h
	}
	return strings.TrimSpace(s)
}

func validHostname(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(strings.TrimSuffix(h, "."), ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// stringIn decodes a JSON string and reports whether it is one of values.
func stringIn(raw json.RawMessage, values ...string) (string, bool) {
	var s string
	if !isKind(raw, '"') || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, slices.Contains(values, s)
}

// isKind says whether the JSON value starts with one of the bytes.
func isKind(raw json.RawMessage, first ...byte) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && slices.Contains(first, t[0])
}

// short is a JSON value cut for a message.
func short(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// suggest is the fix for an unknown key: the nearest known one.
func suggest(key string, known []string) string {
	if best, ok := suggestpkg.Closest(key, known); ok {
		return fmt.Sprintf("did you mean %q?", best)
	}
	return "remove it; the keys are " + strings.Join(known, ", ")
}
