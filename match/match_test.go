package match

import (
	"strings"
	"sync"
	"testing"
	"time"
)

func TestCompileMatchAll(t *testing.T) {
	for _, p := range []string{"", "*"} {
		m, err := Compile(p)
		if m != nil || err != nil {
			t.Errorf("Compile(%q) = %v, %v; want nil, nil (matches all)", p, m, err)
		}
	}
}

// TestCompile checks answers and the engine chosen. Where the comment says
// "JS:", the answer is the one JavaScript gives and another dialect does
// not.
func TestCompile(t *testing.T) {
	const re2, bt = engineRE2, engineBacktrack
	tests := []struct {
		pattern, input string
		want           bool
		engine         engine
	}{
		// Matchers from the docs, tested unanchored.
		{"Shell|Read|Write", "Shell", true, re2},
		{"Shell|Read|Write", "TabRead", true, re2},
		{"Shell|Read|Write", "Grep", false, re2},
		{"curl|wget|nc ", "curl https://example.com", true, re2},
		{"curl|wget|nc ", "nc -l 8080", true, re2},
		{"curl|wget|nc ", "ncat", false, re2},
		{"MCP:.*", "MCP:github_create_issue", true, re2},
		{"MCP:.*", "Shell", false, re2},
		{"explore|shell", "explore", true, re2},
		{"explore|shell", "generalPurpose", false, re2},
		{"^Read$", "TabRead", false, re2},

		// . excludes all four line terminators (Go: only \n).
		{".", "\n", false, re2},
		{".", "\r", false, re2},
		{".", "\u2028", false, re2},
		{".", "\u2029", false, re2},
		{"^.$", "é", true, re2},
		{"^.$", "😀", true, re2}, // one character here; two UTF-16 halves in JS
		{"a.b", "a\r\nb", false, re2},

		// \s and \S are Unicode whitespace (Go: ASCII).
		{`\s`, "\u00a0", true, re2},
		{`\s`, "\u2003", true, re2},
		{`\s`, "\u3000", true, re2},
		{`\s`, "\ufeff", true, re2},
		{`\s`, "\u180e", false, re2},
		{`\s`, "\u0085", false, re2},
		{`^\S$`, "\u2028", false, re2},
		{`^\S$`, "x", true, re2},
		{`[^\s]`, "\u00a0", false, re2},
		{`[\S]`, "\u00a0", false, re2},
		{`rm\s+-rf`, "rm\u00a0-rf /", true, re2},

		// POSIX classes do not exist: JS: [[:alpha:] then a literal ].
		{"[[:alpha:]]", "a", false, re2},
		{"[[:alpha:]]", "a]", true, re2},
		{"[[:alpha:]]", "[]", true, re2},

		// Go-only escapes are letters in JavaScript.
		{`\A`, "A", true, re2},
		{`\Aabc`, "abc", false, re2},
		{`abc\z`, "abcz", true, re2},
		{`\Qa.b\E`, "QaxbE", true, re2},
		{`\Qa.b\E`, "a.b", false, re2},
		{`\C`, "C", true, re2},
		{`\pL`, "pL", true, re2},
		{`\pL`, "a", false, re2},
		{`\p{L}`, "p{L}", true, re2},
		{`\x{41}`, "A", false, re2},
		{`\x{41}`, strings.Repeat("x", 41), true, re2},
		{`\x41`, "A", true, re2},
		{`\u0041`, "A", true, re2},
		{`\e`, "e", true, re2},
		{`\k`, "k", true, re2},
		{`\c`, `\c`, true, re2},
		{`\cJ`, "\n", true, re2},
		{`\8`, "8", true, re2},
		{`\12`, "\n", true, re2}, // octal: there is no group 12

		// Inline flags: a JS syntax error before ES2025; regexp2 runs them.
		{"(?i)shell", "SHELL", true, bt},
		{"(?i:shell)x", "SHELLx", true, bt},
		{"(?i:shell)x", "SHELLX", false, bt},
		{"(?i)\u00e9", "\u00c9", true, bt},
		{"(?s)a.b", "a\nb", true, bt},
		{"(?m)^b$", "a\nb\nc", true, bt},
		{"(?m)^b$", "a\u2028b\u2028c", true, bt},
		{"^b$", "a\nb\nc", false, re2},

		// Lookaround and back references: Go rejects them.
		{"^(?!rm ).*", "rm -rf /", false, bt},
		{"^(?!rm ).*", "ls", true, bt},
		{"(?<=git )push", "git push", true, bt},
		{"(?<!git )push", "git push", false, bt},
		{"(a)\\1", "aa", true, bt},
		{"(a)\\1", "ab", false, bt},
		{"(?<q>['\"]).*\\k<q>", `echo "hi"`, true, bt},
		{"(?<q>['\"]).*\\k<q>", `echo "hi'`, false, bt},
		{"\\1(a)", "a", true, bt}, // a reference to a group not yet matched is empty
		{"(?=a)*b", "b", true, bt},

		// [] matches nothing and [^] anything.
		{"[]", "a", false, re2},
		{"a[]?", "a", true, re2},
		{"[^]", "\n", true, re2},
		{"^[^]$", "😀", true, re2},

		// { is a literal unless it forms a quantifier.
		{"a{", "a{", true, re2},
		{"a{2}", "aa", true, re2},
		{"a{2}", "a", false, re2},
		{"a{,2}", "a{,2}", true, re2},
		{"a{1,}b", "aaab", true, re2},
		{"x}", "x}", true, re2},
		{"]", "]", true, re2},
		{"x{1001}", strings.Repeat("x", 1001), true, bt}, // more than Go's limit of 1000
		{"(?:a{1000}){2}", strings.Repeat("a", 2000), true, bt},

		// ^ and $ anchor the whole text (no m flag).
		{"a$", "a\n", false, re2},
		{"^b", "a\nb", false, re2},
		{"$^", "", true, re2},

		// \b and \B look at ASCII word characters only.
		{`\bé`, "é", false, re2},
		{`a\b`, "aé", true, re2},
		{`\Bé`, "é", true, re2},
		{`(?i)\bk`, "\u212a", false, bt},

		// Unicode inputs.
		{"日本", "こんにちは日本", true, re2},
		{"é", "e\u0301", false, re2},
		{"[é-ü]", "ö", true, re2},
		{`\uD83D\uDE00`, "😀", true, re2},
		{`\uD83D`, "😀", false, re2}, // half a surrogate pair never matches
		{"\\w+", "日本", false, re2},
		{"MCP:.*", "MCP:\xff", true, re2}, // invalid UTF-8 reads as U+FFFD
	}
	for _, tt := range tests {
		m, err := Compile(tt.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v", tt.pattern, err)
			continue
		}
		if got := m.MatchString(tt.input); got != tt.want {
			t.Errorf("Compile(%q).MatchString(%q) = %v, want %v (%s: %s)", tt.pattern, tt.input, got, tt.want, m.engine, m.expr)
		}
		if m.engine != tt.engine {
			t.Errorf("Compile(%q) runs on %s, want %s", tt.pattern, m.engine, tt.engine)
		}
		if m.String() != tt.pattern {
			t.Errorf("Compile(%q).String() = %q", tt.pattern, m.String())
		}
	}
}

// compileErrors are patterns JavaScript rejects, with what the error says.
var compileErrors = []struct{ pattern, want string }{
	{"a(b", `invalid regular expression "a(b": missing closing )`},
	{"a)", "unmatched ) with no ( before it"},
	{"[a", "missing closing ] of the character class"},
	{"*.sh", `"*" has nothing to repeat`},
	{"a**", `"*" has nothing to repeat`},
	{"a{2}*", `"*" has nothing to repeat`},
	{"{2}", `"{2}" has nothing to repeat`},
	{"^*", `"*" has nothing to repeat: ^ is not`},
	{`\b+`, `"+" has nothing to repeat: \b is not`},
	{"(?<=a)*", "a lookbehind (?<=a) cannot be repeated"},
	{"a{2,1}", "numbers out of order in {2,1}"},
	{"[z-a]", "range out of order in character class: z-a"},
	{`\`, `pattern ends with a lone \`},
	{`[\`, `pattern ends with a lone \`},
	{"(?x)a", "unknown group (?x"},
	{"(?P<n>a)", "unknown group (?P"},
	{"(?", "missing closing )"},
	{"(?)", "(?) names no flag"},
	{"(?i-i)", "name i twice"},
	{"(?i--m:a)", "more than one -"},
	{"(?<1a>x)", `invalid capture group name "1a"`},
	{"(?<a", "has no closing >"},
	{"(?<a>x)(?<a>y)", `duplicate capture group name "a"`},
	{`(?<a>x)\k<b>`, `\k<b> refers to no group named "b"`},
	{`(?<a>x)\k`, `\k must be followed by <name>`},
	{`(?<a>x)[\k]`, `\k cannot be used in a character class`},
	{strings.Repeat("(", maxDepth+1) + strings.Repeat(")", maxDepth+1), "groups nested more than 1000 deep"},
}

func TestCompileErrors(t *testing.T) {
	for _, tt := range compileErrors {
		m, err := Compile(tt.pattern)
		if err == nil {
			t.Errorf("Compile(%q) = %v, want an error", tt.pattern, m.expr)
			continue
		}
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Compile(%q) error = %q, want it to contain %q", tt.pattern, err, tt.want)
		}
		if !strings.HasPrefix(err.Error(), "invalid regular expression ") {
			t.Errorf("Compile(%q) error = %q, want the common prefix", tt.pattern, err)
		}
	}
}

func TestCompileErrorOffset(t *testing.T) {
	_, err := Compile("ok|a{3,2}")
	se, ok := err.(*SyntaxError)
	if !ok {
		t.Fatalf("error %v (%T) is not a *SyntaxError", err, err)
	}
	if se.Offset != 4 {
		t.Errorf("Offset = %d, want 4 (the {)", se.Offset)
	}
}

func TestCompileNameList(t *testing.T) {
	tests := []struct {
		pattern, input string
		want           bool
		engine         engine
	}{
		{"Write", "Write", true, engineNames},
		{"Write", "NotebookWrite", false, engineNames},
		{"Edit|Write", "Edit", true, engineNames},
		{"Edit|Write", "NotebookEdit", false, engineNames},
		{"Edit, Write", "Write", true, engineNames},
		{" Edit | Write ", "Edit", true, engineNames},
		{"my-tool", "my-tool", true, engineNames},
		{"my-tool", "my-tool2", false, engineNames},
		{"mcp__memory", "mcp__memory__store", false, engineNames},
		{"|", "", false, engineNames},
		{"mcp__memory__.*", "mcp__memory__store", true, engineRE2},
		{"Edit.*", "NotebookEdit", true, engineRE2},
		{"^Bash$", "Bash", true, engineRE2},
		{"(?!Bash)", "Bash", true, engineBacktrack},
	}
	for _, tt := range tests {
		m, err := CompileNameList(tt.pattern)
		if err != nil || m == nil {
			t.Errorf("CompileNameList(%q) = %v, %v", tt.pattern, m, err)
			continue
		}
		if got := m.MatchString(tt.input); got != tt.want {
			t.Errorf("CompileNameList(%q).MatchString(%q) = %v, want %v", tt.pattern, tt.input, got, tt.want)
		}
		if m.engine != tt.engine {
			t.Errorf("CompileNameList(%q) runs on %s, want %s", tt.pattern, m.engine, tt.engine)
		}
	}
	for _, p := range []string{"", "*", "  ", " * "} {
		if m, err := CompileNameList(p); m != nil || err != nil {
			t.Errorf("CompileNameList(%q) = %v, %v; want nil, nil (matches all)", p, m, err)
		}
	}
	if _, err := CompileNameList("Bash("); err == nil {
		t.Error(`CompileNameList("Bash(") succeeded, want the regex error`)
	}
}

// TestBacktrackTimeout checks that a catastrophic pattern on the
// backtracking engine gives up (no match) instead of hanging, and that the
// same shape without lookaround runs on RE2 in linear time.
func TestBacktrackTimeout(t *testing.T) {
	input := strings.Repeat("a", 40) + "!"
	tests := []struct {
		pattern string
		engine  engine
		within  time.Duration
	}{
		{"(?=(a+)+$)", engineBacktrack, 20 * matchTimeout},
		{"(a+)+$", engineRE2, matchTimeout},
	}
	for _, tt := range tests {
		m, err := Compile(tt.pattern)
		if err != nil {
			t.Fatal(err)
		}
		if m.engine != tt.engine {
			t.Errorf("%q runs on %s, want %s", tt.pattern, m.engine, tt.engine)
		}
		start := time.Now()
		if m.MatchString(input) {
			t.Errorf("%q matched %q", tt.pattern, input)
		}
		if d := time.Since(start); d > tt.within {
			t.Errorf("%q took %v, want under %v", tt.pattern, d, tt.within)
		}
	}
}

// TestConcurrentMatch runs one matcher of each engine from many goroutines;
// with -race it checks that a Matcher may be shared.
func TestConcurrentMatch(t *testing.T) {
	for _, p := range []string{"Shell|Read", "(?<!Tab)Read", "(?i)shell"} {
		m, err := Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				for j := range 200 {
					in := []string{"Read", "TabRead", "SHELL", "Write"}[(i+j)%4]
					want := map[string]bool{"Read": p != "(?i)shell", "TabRead": p == "Shell|Read", "SHELL": p == "(?i)shell", "Write": false}[in]
					if got := m.MatchString(in); got != want {
						t.Errorf("%q on %q = %v, want %v", p, in, got, want)
						return
					}
				}
			})
		}
		wg.Wait()
	}
}
