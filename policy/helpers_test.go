package policy

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

func TestGlob(t *testing.T) {
	cases := []struct {
		path, pattern string
		want          bool
	}{
		{"/src/app/.env", ".env", true},
		{"/src/app/.env.local", ".env.*", true},
		{"/src/app/.env.example", ".env", false},
		{"/src/app/certs/server.pem", "*.pem", true},
		{"server.pem", "*.pem", true},
		{"/src/app/pem", "*.pem", false},
		{`C:\src\app\.env`, ".env", true},
		{"/home/me/.aws/credentials", ".aws/credentials", true},
		{"/home/me/aws/credentials", ".aws/credentials", false},
		{"/src/app/secrets/a/b.json", "secrets/**", true},
		{"/src/app/secrets", "secrets/**", true},
		{"/src/app/notsecrets/x", "secrets/**", false},
		{"/src/app/a/b/c/d.go", "a/**/d.go", true},
		{"/src/app/a/d.go", "a/**/d.go", true},
		{"/src/app/a/d.txt", "a/**/d.go", false},
		{"/etc/passwd", "/etc/*", true},
		{"/srv/etc/passwd", "/etc/*", false},
		{"relative/etc/passwd", "/etc/*", false},
		{"/a/b", "/**", true},
		{"api.github.com", "*.github.com", true},
		{"github.com", "*.github.com", false},
		{"evil.com", "*.github.com", false},
		{"", "*", false},
		{"/x", "", false},
		{"/x/y", "[", false}, // malformed
	}
	for _, c := range cases {
		if got := Glob(c.path, c.pattern); got != c.want {
			t.Errorf("Glob(%q, %q) = %v, want %v", c.path, c.pattern, got, c.want)
		}
	}
}

func TestBasenameExt(t *testing.T) {
	cases := []struct{ path, base, ext string }{
		{"/a/b/key.pem", "key.pem", ".pem"},
		{"/a/b/a.tar.gz", "a.tar.gz", ".gz"},
		{"/a/b/.env", ".env", ""},
		{"/a/b/.env.local", ".env.local", ".local"},
		{"Makefile", "Makefile", ""},
		{`C:\x\y.TXT`, "y.TXT", ".TXT"},
		{"/a/b/", "b", ""},
		{"", "", ""},
		{"/", "", ""},
	}
	for _, c := range cases {
		if b, e := Basename(c.path), Ext(c.path); b != c.base || e != c.ext {
			t.Errorf("Basename/Ext(%q) = %q, %q; want %q, %q", c.path, b, e, c.base, c.ext)
		}
	}
}

func TestJoinPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths")
	}
	cases := []struct{ base, p, want string }{
		{"/srv/ws", "build", "/srv/ws/build"},
		{"/srv/ws", "../x", "/srv/x"},
		{"/srv/ws", "/etc", "/etc"},
		{"/srv/ws", "/etc/../tmp", "/tmp"},
		{"/srv/ws", "~/x", "~/x"},
		{"", "build", ""},
		{"", "/abs", "/abs"},
		{".", "build", "build"},
		{"/srv/ws", "", "/srv/ws"},
	}
	for _, c := range cases {
		if got := JoinPath(c.base, c.p); got != c.want {
			t.Errorf("JoinPath(%q, %q) = %q, want %q", c.base, c.p, got, c.want)
		}
	}
}

func TestInWorkspace(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	tmp := t.TempDir()
	ws := filepath.Join(tmp, "ws")
	other := filepath.Join(tmp, "other")
	for _, d := range []string{filepath.Join(ws, "src"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A link inside the workspace that points outside, and one that
	// stays inside.
	if err := os.Symlink(other, filepath.Join(ws, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(ws, "src"), filepath.Join(ws, "inner")); err != nil {
		t.Fatal(err)
	}
	roots := []string{ws}
	cases := []struct {
		p    string
		want bool
	}{
		{filepath.Join(ws, "src", "main.go"), true},
		{filepath.Join(ws, "does", "not", "exist"), true},
		{ws, true},
		{"src/main.go", true},
		{"./src/../src/x", true},
		{filepath.Join(ws, "..", "other", "x"), false},
		{"../other", false},
		{"src/../../other", false},
		{filepath.Join(ws, "escape"), false},
		{filepath.Join(ws, "escape", "file"), false},
		{filepath.Join(ws, "escape", "new", "file"), false},
		{filepath.Join(ws, "inner", "x"), true},
		{ws + "-sibling", false},
		{"/", false},
		{"~/x", false},
		{"", false},
	}
	for _, c := range cases {
		if got := InWorkspace(c.p, roots); got != c.want {
			t.Errorf("InWorkspace(%q) = %v, want %v", c.p, got, c.want)
		}
	}
	if InWorkspace(filepath.Join(other, "x"), nil) {
		t.Error("no roots: nothing is inside")
	}
	if !InWorkspace(filepath.Join(other, "x"), []string{ws, other}) {
		t.Error("second root")
	}
}

func TestURLHost(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://Example.COM/x", "example.com"},
		{"https://user:pw@example.com:8443/x?y#z", "example.com"},
		{"http://[::1]:8080/", "::1"},
		{"example.com/path", "example.com"},
		{"example.com:8080/path", "example.com"},
		{"example.com:8080", "example.com"},
		{"git@github.com:org/repo.git", "github.com"},
		{"ssh://git@github.com/org/repo", "github.com"},
		{"ftp://files.example.org.", "files.example.org"},
		{`C:\file`, ""},
		{"", ""},
		{"/just/a/path", ""},
	}
	for _, c := range cases {
		if got := URLHost(c.in); got != c.want {
			t.Errorf("URLHost(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMCPNames(t *testing.T) {
	cases := []struct{ name, server, tool string }{
		{"mcp__github__create_issue", "github", "create_issue"},
		{"mcp__github__tool__with__underscores", "github", "tool__with__underscores"},
		{"MCP:github/create_issue", "github", "create_issue"},
		{"MCP:create_issue", "", "create_issue"},
		{"mcp__broken", "", ""},
		{"Shell", "", ""},
		{"", "", ""},
	}
	for _, c := range cases {
		if s, tl := MCPServer(c.name), MCPTool(c.name); s != c.server || tl != c.tool {
			t.Errorf("MCPServer/MCPTool(%q) = %q, %q; want %q, %q", c.name, s, tl, c.server, c.tool)
		}
	}
}

func TestNetHosts(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		{"curl https://a.example/x", []string{"a.example"}},
		{"curl -sSL -o out https://a.example/x https://b.example", []string{"a.example", "b.example"}},
		{"curl -H 'Host: evil' -d x=y --url https://u.example c.example", []string{"u.example", "c.example"}},
		{"curl -x proxy.example:3128 https://a.example", []string{"proxy.example", "a.example"}},
		{"curl -K cfg", []string{""}},
		{"curl --connect-to ::evil:443 https://a.example", []string{"a.example", ""}},
		{"curl $URL", []string{""}},
		{"wget -O f http://w.example/a", []string{"w.example"}},
		{"wget -i list", []string{""}},
		{"nc -v n.example 80", []string{"n.example"}},
		{"nc -l 8080", nil},
		{"ssh -p 22 -i k me@s.example uptime", []string{"s.example"}},
		{"ssh -J jump.example,j2.example:2222 s.example", []string{"jump.example", "j2.example", "s.example"}},
		{"ssh s.example curl https://inner.example", []string{"s.example"}},
		{"scp a.txt me@h.example:/tmp/ b.example:x", []string{"h.example", "b.example"}},
		{"scp a b", nil},
		{"rsync -avz -e ssh ./x r.example:/y", []string{"r.example"}},
		{"telnet t.example 23", []string{"t.example"}},
		{"echo https://x.example", nil},
	}
	for _, c := range cases {
		cmds := shellscan.Commands(c.line)
		got := NetHosts(cmds[0]) // the line's own command, not one it runs
		if !slices.Equal(got, c.want) {
			t.Errorf("NetHosts(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
