package team_test

import (
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/team"
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
		if err := team.CheckScriptName(tc.name, false); (err == nil) != tc.unix {
			t.Errorf("%q for Unix: %v", tc.name, err)
		}
		if err := team.CheckScriptName(tc.name, true); (err == nil) != tc.wins {
			t.Errorf("%q for Windows: %v", tc.name, err)
		}
	}
}

func TestCommand(t *testing.T) {
	for _, tc := range []struct{ name, os, want string }{
		{"guard.sh", team.Linux, "./guard.sh"},
		{"guard.sh", team.Macintosh, "./guard.sh"},
		{"my hook.sh", team.Linux, `'./my hook.sh'`},
		{"it's.sh", team.Linux, `'./it'\''s.sh'`},
		{"$(rm -rf ~).sh", team.Linux, `'./$(rm -rf ~).sh'`},
		{"guard.ps1", team.Windows, "powershell -NoProfile -ExecutionPolicy Bypass -File ./guard.ps1"},
		{"My Guard.PS1", team.Windows, "powershell -NoProfile -ExecutionPolicy Bypass -File './My Guard.PS1'"},
		{"guard.cmd", team.Windows, "./guard.cmd"},
		{"it's.exe", team.Windows, "& './it''s.exe'"},
	} {
		if got := team.Command(tc.name, tc.os); got != tc.want {
			t.Errorf("Command(%q, %s) = %s, want %s", tc.name, tc.os, got, tc.want)
		}
	}
}
