package policy

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// slash turns a path into the form the path helpers match: forward
// slashes, so that a policy reads the same on every system.
func slash(p string) string { return strings.ReplaceAll(p, `\`, "/") }

// Basename returns the last element of a path, with either separator:
// "/a/b/.env" → ".env". An empty path gives "".
func Basename(p string) string {
	p = strings.TrimRight(slash(p), "/")
	if p == "" {
		return ""
	}
	return p[strings.LastIndexByte(p, '/')+1:]
}

// Ext returns the extension of a path's base name, with its dot:
// "key.pem" → ".pem", "a.tar.gz" → ".gz". A leading dot does not start
// an extension, so ".env" and "Makefile" give "".
func Ext(p string) string {
	b := Basename(p)
	i := strings.LastIndexByte(b, '.')
	if i <= 0 {
		return ""
	}
	return b[i:]
}

// Glob reports whether p matches pattern. Elements are matched as
// path.Match does (*, ?, [...]), and "**" matches any number of whole
// elements. A pattern without a slash matches the base name (".env",
// "*.pem"); a pattern not starting with "/" matches at any depth
// ("secrets/*.json" matches "/srv/app/secrets/a.json"); a pattern starting
// with "/" is anchored at the root. Backslashes in p count as separators.
// A malformed pattern matches nothing, and nothing matches an empty p
// (which stands for a path or host that is not known).
func Glob(p, pattern string) bool {
	if pattern == "" || p == "" {
		return false
	}
	p = slash(p)
	if !strings.Contains(pattern, "/") {
		ok, err := path.Match(pattern, Basename(p))
		return err == nil && ok
	}
	var pe []string
	if strings.HasPrefix(pattern, "/") {
		if !strings.HasPrefix(p, "/") && !isDrive(p) {
			return false
		}
		pe = splitPath(pattern)
	} else {
		pe = append([]string{"**"}, splitPath(pattern)...)
	}
	return matchElems(pe, splitPath(p))
}

func isDrive(p string) bool {
	return len(p) >= 3 && p[1] == ':' && p[2] == '/'
}

func splitPath(p string) []string {
	var out []string
	for _, e := range strings.Split(p, "/") {
		if e != "" {
			out = append(out, e)
		}
	}
	return out
}

// matchElems matches path elements against pattern elements, "**"
// standing for any number of elements.
func matchElems(pat, elems []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 0 && pat[0] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 0 {
				return true
			}
			for i := range elems {
				if matchElems(pat, elems[i:]) {
					return true
				}
			}
			return false
		}
		if len(elems) == 0 {
			return false
		}
		ok, err := path.Match(pat[0], elems[0])
		if err != nil || !ok {
			return false
		}
		pat, elems = pat[1:], elems[1:]
	}
	return len(elems) == 0
}

// JoinPath resolves p against base the way a shell resolves a relative
// path against its directory: an absolute p (or one starting with "~")
// stands alone; an empty base means the directory is unknown, and so is
// the result ("").
func JoinPath(base, p string) string {
	switch {
	case p == "":
		return base
	case strings.HasPrefix(p, "~"):
		return p
	case filepath.IsAbs(p) || strings.HasPrefix(slash(p), "/"):
		return filepath.Clean(p)
	case base == "":
		return ""
	}
	return filepath.Join(base, p)
}

// InWorkspace reports whether p lies inside one of the workspace roots.
// A relative p is taken relative to the first root. ".." is resolved, and
// when the path (or the longest part of it that exists) is a symbolic
// link, its target is what counts, so a link inside the workspace that
// points outside does not pass. Paths starting with "~" (a home directory
// the policy cannot see) and empty paths are outside.
func InWorkspace(p string, roots []string) bool {
	if p == "" || strings.HasPrefix(p, "~") || len(roots) == 0 {
		return false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(roots[0], p)
	}
	target := resolve(filepath.Clean(p))
	for _, r := range roots {
		if r == "" || !filepath.IsAbs(r) {
			continue
		}
		if within(target, resolve(filepath.Clean(r))) {
			return true
		}
	}
	return false
}

// within reports whether p is root or below it.
func within(p, root string) bool {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		// Case-insensitive file systems by default.
		p, root = strings.ToLower(p), strings.ToLower(root)
	}
	if p == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(p, root)
}

// resolve follows symbolic links in the longest existing prefix of p and
// appends the rest, so that a path that does not exist yet is judged by
// where it would be created.
func resolve(p string) string {
	rest := ""
	cur := p
	for {
		res, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(res, rest)
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, os.ErrNotExist) {
			// Unreadable (permissions, a loop): judge the path as written.
			return p
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// MCPServer returns the server part of an MCP tool name: "github" for
// "mcp__github__create_issue" (Claude Code's form) and for
// "MCP:github/create_issue"; "" when the name has no server part (Cursor's
// "MCP:create_issue") or is not an MCP tool.
func MCPServer(name string) string {
	s, _ := splitMCP(name)
	return s
}

// MCPTool returns the tool part of an MCP tool name: "create_issue" for
// "mcp__github__create_issue", "MCP:github/create_issue" and
// "MCP:create_issue"; "" when the name is not an MCP tool.
func MCPTool(name string) string {
	_, t := splitMCP(name)
	return t
}

func splitMCP(name string) (server, tool string) {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		s, t, found := strings.Cut(rest, "__")
		if !found {
			return "", ""
		}
		return s, t
	}
	if rest, ok := strings.CutPrefix(name, "MCP:"); ok {
		if s, t, found := strings.Cut(rest, "/"); found {
			return s, t
		}
		return "", rest
	}
	return "", ""
}
