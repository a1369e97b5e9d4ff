package sync_test

import (
	"strings"
	"testing"

	teamsync "github.com/agenthooks/agenthooks/team/sync"
)

func TestCheckScriptName(t *testing.T) {
	for _, tc := range []struct {
		name       string
		unix, wins bool // accepted for Unix, for Windows
	}{
		{"guard.sh", true, true},
		{"check secrets.sh", true, true},
		{"-rf", true, true},
		{"naïve.sh", true, true},
		{"CON", true, false},
		{"con.ps1", true, false},
		{"Nul.txt", true, false},
		{"COM1.cmd", true, false},
		{"lpt9", true, false},
		{"LPT¹", true, false},
		{"console.ps1", true, true},
		{"COM10", true, true},
		{"a:b", true, false},
		{"a?b", true, false},
		{"trailing.", true, false},
		{"trailing ", true, false},
		{"", false, false},
		{".", false, false},
		{"..", false, false},
		{"../x", false, false},
		{"/etc/passwd", false, false},
		{`a\b`, false, false},
		{"a/b", false, false},
		{".hidden", false, false},
		{"a\x00b", false, false},
		{"a\nb", false, false},
		{"a\x9bb", false, false},
		{"\xff.sh", false, false},
		{"hooks.json", false, false},
		{"Hooks.JSON", false, false},
		{strings.Repeat("a", 255), true, true},
		{strings.Repeat("a", 256), false, false},
	} {
		if err := teamsync.CheckScriptName(tc.name, false); (err == nil) != tc.unix {
			t.Errorf("%q for Unix: %v", tc.name, err)
		}
		if err := teamsync.CheckScriptName(tc.name, true); (err == nil) != tc.wins {
			t.Errorf("%q for Windows: %v", tc.name, err)
		}
	}
}

func TestCommand(t *testing.T) {
	for _, tc := range []struct{ name, os, want string }{
		{"guard.sh", teamsync.Linux, "./guard.sh"},
		{"guard.sh", teamsync.Macintosh, "./guard.sh"},
		{"my hook.sh", teamsync.Linux, `'./my hook.sh'`},
		{"it's.sh", teamsync.Linux, `'./it'\''s.sh'`},
		{"$(rm -rf ~).sh", teamsync.Linux, `'./$(rm -rf ~).sh'`},
		{"guard.ps1", teamsync.Windows, "powershell -NoProfile -ExecutionPolicy Bypass -File ./guard.ps1"},
		{"My Guard.PS1", teamsync.Windows, "powershell -NoProfile -ExecutionPolicy Bypass -File './My Guard.PS1'"},
		{"guard.cmd", teamsync.Windows, "./guard.cmd"},
		{"it's.exe", teamsync.Windows, "& './it''s.exe'"},
	} {
		if got := teamsync.Command(tc.name, tc.os); got != tc.want {
			t.Errorf("Command(%q, %s) = %s, want %s", tc.name, tc.os, got, tc.want)
		}
	}
}

func TestPrintable(t *testing.T) {
	in := "echo hi\n\tx\x1b[2J\u202eevil\r"
	want := "echo hi\n\tx\\u001b[2J\\u202eevil\\u000d"
	if got := teamsync.Printable(in); got != want {
		t.Fatalf("Printable = %q, want %q", got, want)
	}
}

func TestNewChecksTheOptions(t *testing.T) {
	for _, tc := range []struct {
		o    teamsync.Options
		want string // "" when accepted
	}{
		{teamsync.Options{Server: "https://hooks.example.com/", Token: "t", Home: "/h"}, ""},
		{teamsync.Options{Server: "http://127.0.0.1:8080", Token: "t", Home: "/h"}, ""},
		{teamsync.Options{Server: "http://localhost:8080", Token: "t", Home: "/h"}, ""},
		{teamsync.Options{Server: "http://hooks.example.com", Token: "t", Home: "/h"}, "clear text"},
		{teamsync.Options{Server: "http://hooks.example.com", Token: "t", Home: "/h", AllowInsecureHTTP: true}, ""},
		{teamsync.Options{Server: "ftp://hooks.example.com", Token: "t", Home: "/h"}, "scheme"},
		{teamsync.Options{Server: "https://user:pw@hooks.example.com", Token: "t", Home: "/h"}, "credentials"},
		{teamsync.Options{Server: "", Token: "t", Home: "/h"}, "no server URL"},
		{teamsync.Options{Server: "https://hooks.example.com", Token: "", Home: "/h"}, "no token"},
		{teamsync.Options{Server: "https://hooks.example.com", Token: "a b", Home: "/h"}, "spaces"},
		{teamsync.Options{Server: "https://hooks.example.com", Token: "t", Home: ""}, "no home"},
		{teamsync.Options{Server: "https://hooks.example.com", Token: "t", Home: "/h", OS: "linux"}, "unknown operating system"},
	} {
		c, err := teamsync.New(tc.o)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.o, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: want %q, got %v", tc.o, tc.want, err)
		case err == nil && strings.HasSuffix(c.Server(), "/"):
			t.Errorf("server %q keeps its trailing slash", c.Server())
		}
	}
}

func TestOSName(t *testing.T) {
	for goos, want := range map[string]string{"linux": "Linux", "darwin": "Macintosh", "windows": "Windows", "freebsd": "Linux"} {
		if got := teamsync.OSName(goos); got != want {
			t.Errorf("OSName(%s) = %s, want %s", goos, got, want)
		}
	}
}
