package shellquote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPowerShell(t *testing.T) {
	for in, want := range map[string]string{
		"git":                  "git",
		`C:\Tools\x.exe`:       `C:\Tools\x.exe`,
		"./guard.cmd":          "./guard.cmd",
		"":                     "''",
		"-la":                  "'-la'",
		"@args":                "'@args'",
		"a b":                  "'a b'",
		"it's":                 "'it''s'",
		"x=2":                  "'x=2'",
		"a,b":                  "'a,b'",
		"$HOME":                "'$HOME'",
		"`x`":                  "'`x`'",
		"é":                    "'é'",
		"it’s":                 "'it’’s'",
		"‘a’ ‚b‛":              "'‘‘a’’ ‚‚b‛‛'",
		"a’; Remove-Item x; ’": "'a’’; Remove-Item x; ’’'",
	} {
		if got := PowerShell(in); got != want {
			t.Errorf("PowerShell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPowerShellAlways(t *testing.T) {
	for in, want := range map[string]string{
		`C:\Program Files\agenthooks.exe`: `'C:\Program Files\agenthooks.exe'`,
		"/usr/local/bin/agenthooks":       "'/usr/local/bin/agenthooks'",
		"it's":                            "'it''s'",
	} {
		if got := PowerShellAlways(in); got != want {
			t.Errorf("PowerShellAlways(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPowerShellCommand(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"git", "push", "origin", "main"}, "git push origin main"},
		{[]string{"ls", "-la", "./a/b.c"}, "ls '-la' ./a/b.c"},
		{[]string{"echo", "a b", ""}, "echo 'a b' ''"},
		{[]string{"echo", "it's"}, "echo 'it''s'"},
		{[]string{"FOO=1", "x=2"}, "& 'FOO=1' 'x=2'"},
		{[]string{`C:\Program Files\git.exe`, "push"}, `& 'C:\Program Files\git.exe' push`},
		{[]string{"./it's.exe"}, "& './it''s.exe'"},
		{[]string{"ForEach", "x"}, "& 'ForEach' x"},
		{[]string{"7z", "a"}, "& '7z' a"},
		{[]string{"echo", "$HOME", "*", "a;b", "~", "`x`"}, "echo '$HOME' '*' 'a;b' '~' '`x`'"},
		{nil, ""},
	} {
		if got := PowerShellCommand(tc.argv); got != tc.want {
			t.Errorf("PowerShellCommand(%q) = %s, want %s", tc.argv, got, tc.want)
		}
	}
}

// singleQuotes are the characters PowerShell's tokenizer takes for a
// single quote (its IsSingleQuote), written here apart from the code under
// test.
const singleQuotes = "'\u2018\u2019\u201a\u201b"

// readPowerShellWord reads one argument as PowerShell's tokenizer does for
// the two forms PowerShell writes: a bare word of the plain set, or a
// single-quoted string, in which any of ' ‘ ’ ‚ ‛ closes the string unless
// another follows it, which then stands for itself. It returns the value
// and what follows the word.
func readPowerShellWord(t *testing.T, s string) (string, string) {
	t.Helper()
	r, size := utf8.DecodeRuneInString(s)
	if !strings.ContainsRune(singleQuotes, r) {
		end := strings.IndexByte(s, ' ')
		if end < 0 {
			end = len(s)
		}
		if !PlainPowerShell(s[:end]) {
			t.Fatalf("bare word %q is not plain", s[:end])
		}
		return s[:end], s[end:]
	}
	var b strings.Builder
	rest := s[size:]
	for {
		if rest == "" {
			t.Fatalf("unterminated string in %q", s)
		}
		r, size := utf8.DecodeRuneInString(rest)
		rest = rest[size:]
		if strings.ContainsRune(singleQuotes, r) {
			next, nsize := utf8.DecodeRuneInString(rest)
			if rest == "" || !strings.ContainsRune(singleQuotes, next) {
				return b.String(), rest
			}
			r, rest = next, rest[nsize:]
		}
		b.WriteRune(r)
	}
}

// FuzzPowerShellCommand: read back as PowerShell reads single-quoted
// strings and bare words, the line holds exactly the argv, with & before a
// quoted first word.
func FuzzPowerShellCommand(f *testing.F) {
	for _, seed := range [][3]string{
		{"git", "push", "origin"}, {"FOO=1", "x=2", ""}, {"it's", "a’b", "$HOME"}, {"-x", "@a", "‘‛‚"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		argv := []string{a, b, c}
		for _, s := range argv {
			if !utf8.ValidString(s) {
				t.Skip()
			}
		}
		line := PowerShellCommand(argv)
		rest, called := strings.CutPrefix(line, "& ")
		for i, want := range argv {
			if i > 0 {
				var ok bool
				if rest, ok = strings.CutPrefix(rest, " "); !ok {
					t.Fatalf("%q: no space before word %d", line, i)
				}
			}
			var got string
			quoted := rest != "" && !PlainPowerShell(rest[:max(0, strings.IndexByte(rest+" ", ' '))])
			got, rest = readPowerShellWord(t, rest)
			if got != want {
				t.Fatalf("%q: word %d reads %q, want %q", line, i, got, want)
			}
			if i == 0 && quoted && !called {
				t.Fatalf("%q: a quoted first word without &", line)
			}
		}
		if rest != "" {
			t.Fatalf("%q: %q left over", line, rest)
		}
	})
}
