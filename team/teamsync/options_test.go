package teamsync_test

import (
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/team/teamsync"
)

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
