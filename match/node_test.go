package match

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// jsTestScript evaluates every pattern on every input with JavaScript's own
// RegExp and prints, per pattern, the error or a string of 0 and 1.
const jsTestScript = `
const {patterns, inputs} = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = patterns.map(p => {
  let re;
  try { re = new RegExp(p); } catch (e) { return {err: e.message}; }
  return {res: inputs.map(s => re.test(s) ? "1" : "0").join("")};
});
process.stdout.write(JSON.stringify(out));
`

// jsInputs are the values every pattern is tried on: tool names, commands,
// line terminators, Unicode spaces, non-ASCII letters, and the literal
// spellings of Go-only escapes.
var jsInputs = []string{
	"", "a", "b", "A", "ab", "aa", "ba", "abc", "aba", "AbC", "Shell", "Read", "Write", "TabRead",
	"MCP:github_create", "mcp__memory__store", "explore", "shell", "generalPurpose",
	"curl https://x", "wget -q", "nc -l 80", "ncat", "rm -rf /", "git push --force",
	"\n", "\r", "\r\n", "a\nb", "ab\n", "\u2028", "\u2029", "a\u2028b", "\u0085",
	" ", "\t", "\v", "\f", "\u00a0", "\u1680", "\u2003", "\u200b", "\u202f", "\u3000", "\ufeff", "\u180e",
	"é", "É", "aé", "éa", "日本", "ß", "ſ", "\u212a", "k", "K",
	"x", "p", "P", "L", "z", "Q", "E", "C", "e", "h", "u", "uu", "x41", "xxx",
	"{", "}", "[", "]", "-", "\\", "\\c", "(", ")", "{2}", "a{2}", "a{", "a{,2}", "p{L}",
	"0", "1", "8", "12", "\x00", "\x01", "\x08", "\x0a", "\x1b", "aA1 _", "[:alpha:]", "[]", "k<a>",
}

// jsPatterns are hand-picked: each of the known dialect differences, and
// the matchers from the docs.
var jsPatterns = []string{
	"Shell|Read|Write", "curl|wget|nc ", "MCP:.*", "explore|shell", "^Read$", "^(Tab)?Read$", "rm\\s+-rf",
	".", "^.$", "a.b", "[^]", "^[^]$", "[]", "a[]", "[^a]", "[]a]", "[^]a]", "a|", "|", "()", "(?:)",
	"\\s", "\\S", "^\\s$", "^\\S$", "[\\s]", "[^\\s]", "[\\S]", "[^\\S]", "\\s+", "[\\s\\d]", "[\\S\\s]",
	"\\d", "\\D", "\\w", "\\W", "\\b", "\\B", "a\\b", "\\bé", "é\\b", "\\Bé",
	"[[:alpha:]]", "[[:alpha:]]+", "[:alpha:]", "\\A", "\\z", "\\Aa", "a\\z", "\\Qa.b\\E", "\\C", "\\pL", "\\p{L}", "\\PL", "\\x{41}", "\\x41", "\\x4", "\\u0041", "\\u{41}", "\\u{2}",
	"\\e", "\\h", "\\a", "\\k", "\\k<a>", "\\c", "\\cJ", "\\cj", "\\c1", "[\\c1]", "[\\c]", "[\\c_]", "\\0", "\\1", "\\8", "\\12", "(a)\\1", "(a)\\12", "\\1(a)",
	"(?<a>x)\\k<a>", "\\k<a>(?<a>x)", "(?<a>x)\\k", "(?<a>x)(?<a>y)", "(?<1>x)",
	"{", "}", "]", "a{", "a{2}", "a{,2}", "a{1,}", "a{2,1}", "{2}", "a{1}{2}", "x{1001}", "a{0,1001}",
	"^", "$", "^$", "a$", "^a", "$^", "^*", "$?", "\\b+", "a**", "a*?", "a*??", "a{2}?",
	"(?=a)", "(?!a)", "(?=a)*", "(?<=a)b", "(?<!a)b", "(?<=a)*", "a(?=b)", "(?!.*rm).*",
	"(?i)a", "(?i:a)", "(?x)a", "(?", "(", ")", "a)", "[", "[a", "\\", "a\\",
	"[a-z]", "[z-a]", "[a-]", "[-a]", "[\\d-z]", "[a-\\d]", "[\\-]", "[\\b]", "[\\B]", "[é-ü]",
	"(a|b)*c", "(a+)+$", "(?:ab)+", "a+?", "^(a|ab)(c|bcd)(d*)$",
	"\u2028", "[\u2028]", "é", "日本", "\\u00e9", "\\uD83D", "[\\uD800-\\uDFFF]",
	"(a)|b\\1", "(?:(a)|b)\\1", "(a*)\\1b",
}

var (
	jsRandom = flag.Int("js.random", 3000, "random patterns TestAgainstJavaScript adds to its table")
	jsSeed   = flag.Uint64("js.seed", 1, "seed of those random patterns")
)

func TestAgainstJavaScript(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	patterns := append(append([]string(nil), jsPatterns...), randomPatterns(*jsRandom, *jsSeed)...)
	in, err := json.Marshal(map[string]any{"patterns": patterns, "inputs": jsInputs})
	if err != nil {
		t.Fatal(err)
	}
	// V8 backtracks without a time limit; this flag lets it switch to
	// its linear engine on patterns such as (a*)*b instead of hanging.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--enable-experimental-regexp-engine-on-excessive-backtracks", "-e", jsTestScript)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var results []struct {
		Err *string
		Res string
	}
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatal(err)
	}
	if len(results) != len(patterns) {
		t.Fatalf("node returned %d results for %d patterns", len(results), len(patterns))
	}
	failures := 0
	for i, p := range patterns {
		if failures > 20 {
			t.Fatal("too many differences")
		}
		js := results[i]
		if p == "*" { // ours by design: "*" matches everything
			continue
		}
		m, err := Compile(p)
		if js.Err != nil {
			if err == nil && !hasInlineFlags(p) {
				t.Errorf("Compile(%q) succeeded; JavaScript says %s", p, *js.Err)
				failures++
			}
			continue
		}
		if err != nil {
			t.Errorf("Compile(%q): %v; JavaScript accepts it", p, err)
			failures++
			continue
		}
		for j, s := range jsInputs {
			want := js.Res[j] == '1'
			got := m == nil || m.MatchString(s)
			if got != want && m.engine == engineBacktrack && slowMatch(m, s) {
				t.Logf("%q on %q: skipped, the match runs into the time limit", p, s)
				continue
			}
			if got != want {
				t.Errorf("%q on %q: got %v, JavaScript %v (%s: %s)", p, s, got, want, m.engine, m.expr)
				failures++
				break
			}
		}
	}
}

// slowMatch reports whether matching s takes the backtracking engine
// long enough that a loaded machine may hit matchTimeout.
func slowMatch(m *Matcher, s string) bool {
	start := time.Now()
	m.MatchString(s)
	return time.Since(start) > matchTimeout/10
}

// hasInlineFlags reports whether p may use inline flags, which we accept
// and Node (before ES2025 modifiers) rejects.
func hasInlineFlags(p string) bool {
	return strings.Contains(p, "(?i") || strings.Contains(p, "(?m") || strings.Contains(p, "(?s") || strings.Contains(p, "(?-")
}

// randomAtoms are the pieces random patterns are made of: every escape
// and class form the parser knows, and the ones it must read as
// JavaScript does although another dialect reads them otherwise.
var randomAtoms = []string{
	"a", "b", "A", "é", " ", ".", "\\s", "\\S", "\\d", "\\D", "\\w", "\\W", "\\b", "\\B", "^", "$",
	"\\k<n>", "\\k", "\\1", "\\2", "\\12", "\\8", "\\0",
	"]", "{", "}", ",", "-", "\\A", "\\z", "\\Q", "\\E", "\\C", "\\p", "\\pL", "\\x41", "\\x{41}", "\\x4",
	"\\u0041", "\\u{41}", "\\n", "\\r", "\\t", "\\v", "\\f", "\\c", "\\cJ", "\\c1", "\\e",
	"\\-", "\\]", "\\[", "\\.", "\\\\", "[:alpha:]", "[]", "[^]", "\u2028", "\u00a0", "\n", "0", "1", "<", ">", "=", "!",
}

var randomClassItems = []string{
	"a", "b", "z", "é", "-", "^", "[", "\\]", "\\-", "\\s", "\\S", "\\d", "\\w", "\\W", "\\D",
	"\\b", "\\B", "\\c", "\\cJ", "\\c1", "\\c_", "\\0", "\\1", "\\8", "\\x41", "\\u00e9", "\\k",
	"a-z", "0-9", "\\d-z", "A-\\w", "\\u2028", ":", "\\\\",
}

var (
	randomGroups     = []string{"(", "(", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>"}
	randomQuantifier = []string{"", "", "", "*", "+", "?", "*?", "+?", "{2}", "{1,}", "{0,2}", "{2,1}", "{,2}", "{1"}
)

// randomPatterns returns n patterns, the same ones on every run: mostly
// well-formed nestings of groups, classes and escapes, with now and then
// a stray token to exercise the errors.
func randomPatterns(n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 2))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		randomAlternation(rng, &b, 0)
		out[i] = b.String()
	}
	return out
}

func randomAlternation(rng *rand.Rand, b *strings.Builder, depth int) {
	for i := range 1 + rng.IntN(2) {
		if i > 0 {
			b.WriteByte('|')
		}
		for range rng.IntN(4) {
			randomTerm(rng, b, depth)
		}
	}
}

func randomTerm(rng *rand.Rand, b *strings.Builder, depth int) {
	switch r := rng.IntN(20); {
	case r < 4 && depth < 3:
		b.WriteString(randomGroups[rng.IntN(len(randomGroups))])
		randomAlternation(rng, b, depth+1)
		b.WriteByte(')')
	case r < 7:
		b.WriteByte('[')
		if rng.IntN(3) == 0 {
			b.WriteByte('^')
		}
		for range rng.IntN(4) {
			b.WriteString(randomClassItems[rng.IntN(len(randomClassItems))])
		}
		b.WriteByte(']')
	case r == 7:
		b.WriteString([]string{"(", ")", "[", "*", "\\", "(?"}[rng.IntN(6)])
	default:
		b.WriteString(randomAtoms[rng.IntN(len(randomAtoms))])
	}
	b.WriteString(randomQuantifier[rng.IntN(len(randomQuantifier))])
}
