package shellquote

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

func TestPOSIX(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/local/bin/agenthooks": "/usr/local/bin/agenthooks",
		"a-b_c.d:e=f,g@h%i+j":       "a-b_c.d:e=f,g@h%i+j",
		"":                          "''",
		"/My Tools/agenthooks":      "'/My Tools/agenthooks'",
		"it's":                      `'it'\''s'`,
		"é":                         "'é'",
		"$HOME":                     "'$HOME'",
		"~":                         "'~'",
		"*":                         "'*'",
		"a;b":                       "'a;b'",
		"`x`":                       "'`x`'",
		`back\slash`:                `'back\slash'`,
	} {
		if got := POSIX(in); got != want {
			t.Errorf("POSIX(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPOSIXAlways(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "'plain'",
		"":      "''",
		"it's":  `'it'\''s'`,
		"''":    `''\'''\'''`,
	} {
		if got := POSIXAlways(in); got != want {
			t.Errorf("POSIXAlways(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPOSIXCommand(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"git", "push", "origin", "main"}, "git push origin main"},
		{[]string{"ls", "-la", "./a/b.c"}, "ls -la ./a/b.c"},
		{[]string{"echo", "a b", ""}, "echo 'a b' ''"},
		{[]string{"echo", "it's"}, `echo 'it'\''s'`},
		{[]string{"FOO=1", "x=2"}, "'FOO=1' x=2"},
		{[]string{"/a=b/bin", "x"}, "'/a=b/bin' x"},
		{[]string{"time", "ls"}, "'time' ls"},
		{[]string{"if"}, "'if'"},
		{[]string{"echo", "$HOME", "*", "a;b", "~", "`x`"}, "echo '$HOME' '*' 'a;b' '~' '`x`'"},
		{[]string{"echo", "é"}, "echo 'é'"},
		{nil, ""},
	} {
		if got := POSIXCommand(tc.argv); got != tc.want {
			t.Errorf("POSIXCommand(%q) = %s, want %s", tc.argv, got, tc.want)
		}
	}
}

// What sh makes of the line is the argv it came from, a reserved word as
// the program included.
func TestPOSIXCommandRoundTripsThroughSh(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX sh quoting")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	args := []string{"printf", `%s\n`, "plain", "two words", "it's", `back\slash`, `"dq"`, "$HOME", "*", "",
		"a\nb", "-n", "x=1", "tab\there", "é€", "~", "a;b", "$(echo no)", "`echo no`", "!x", "{a,b}", "#c"}
	line := POSIXCommand(args)
	out, err := exec.CommandContext(t.Context(), sh, "-c", line).Output()
	if err != nil {
		t.Fatalf("sh -c %s: %v", line, err)
	}
	if want := strings.Join(args[2:], "\n") + "\n"; string(out) != want {
		t.Errorf("sh -c %s\n got %q\nwant %q", line, out, want)
	}

	// A reserved word, quoted, names a program again.
	out, err = exec.CommandContext(t.Context(), sh, "-c", "PATH="+t.TempDir()+":$PATH; "+POSIXCommand([]string{"time", "x"})).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "time") {
		t.Errorf("'time' ran as the keyword, not as a program: %v %q", err, out)
	}
}

// parseCommand parses line as POSIX sh and returns the words of its one
// simple command, failing if the line is anything else.
func parseCommand(t *testing.T, line string) []*syntax.Word {
	t.Helper()
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(line), "")
	if err != nil {
		t.Fatalf("parse %q: %v", line, err)
	}
	if len(f.Stmts) != 1 {
		t.Fatalf("%q parses as %d statements", line, len(f.Stmts))
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(call.Assigns) > 0 {
		t.Fatalf("%q is not one plain simple command: %#v", line, st)
	}
	return call.Args
}

// checkLiteral fails unless w holds only literal text and single-quoted
// strings, with nothing that expands: no parameter, command or arithmetic
// expansion, no glob character and no tilde outside the quotes.
func checkLiteral(t *testing.T, line string, w *syntax.Word) {
	t.Helper()
	for i, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			if p.Dollar {
				t.Fatalf("%q: a $'…' string", line)
			}
		case *syntax.Lit:
			// \' is the one escape the quoting writes.
			if strings.ContainsAny(strings.ReplaceAll(p.Value, `\'`, ""), "*?[]\\") || i == 0 && strings.HasPrefix(p.Value, "~") {
				t.Fatalf("%q: %q bare would expand", line, p.Value)
			}
		default:
			t.Fatalf("%q: word part %T expands", line, p)
		}
	}
}

// FuzzPOSIXCommand: whatever the words, the line parses as one simple
// command whose words are literal and expand to the argv, the first being
// the program (not an assignment, not a keyword).
func FuzzPOSIXCommand(f *testing.F) {
	for _, seed := range [][3]string{
		{"git", "push", "origin"}, {"FOO=1", "x=2", ""}, {"it's", "a b", "$HOME"}, {"time", "-p", "~"},
		{"é", "\n", "`x`"}, {"if", "then", "fi"}, {"a\\", "'", `"`}, {"%1", "!", "#"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		argv := []string{a, b, c}
		for _, s := range argv {
			// An argv cannot hold NUL; the parser reads text, not bytes.
			if strings.ContainsRune(s, 0) || !utf8.ValidString(s) {
				t.Skip()
			}
		}
		line := POSIXCommand(argv)
		words := parseCommand(t, line)
		if len(words) != len(argv) {
			t.Fatalf("%q: %d words, want %d", line, len(words), len(argv))
		}
		if lit, ok := words[0].Parts[0].(*syntax.Lit); ok && len(words[0].Parts) == 1 && reservedWords[lit.Value] {
			t.Fatalf("%q: the first word is the keyword %s", line, lit.Value)
		}
		for i, w := range words {
			checkLiteral(t, line, w)
			got, err := expand.Fields(nil, w)
			if err != nil {
				t.Fatalf("expand %q: %v", line, err)
			}
			if len(got) != 1 || got[0] != argv[i] {
				t.Fatalf("%q: word %d expands to %q, want %q", line, i, got, argv[i])
			}
		}
	})
}

func TestCommandIsThisSystemsShell(t *testing.T) {
	argv := []string{"agenthooks", "trust", "/my repo"}
	want := POSIXCommand(argv)
	if runtime.GOOS == "windows" {
		want = PowerShellCommand(argv)
	}
	if got := Command(argv); got != want {
		t.Errorf("Command(%q) = %s, want %s", argv, got, want)
	}
}
