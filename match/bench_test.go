package match

import "testing"

// BenchmarkMatchString measures the common case, a plain alternation of
// tool names, on each engine.
func BenchmarkMatchString(b *testing.B) {
	const pattern = "Shell|Read|Write|Grep|Delete|MCP:.*"
	tree, err := parse(pattern)
	if err != nil {
		b.Fatal(err)
	}
	re2, err := Compile(pattern)
	if err != nil {
		b.Fatal(err)
	}
	bt, err := compileBacktrack(pattern, tree)
	if err != nil {
		b.Fatal(err)
	}
	names, err := CompileNameList("Shell|Read|Write|Grep|Delete")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		m    *Matcher
	}{{"re2", re2}, {"regexp2", bt}, {"names", names}} {
		for _, in := range []string{"Write", "TabWrite", "subagentStart"} {
			b.Run(c.name+"/"+in, func(b *testing.B) {
				for b.Loop() {
					c.m.MatchString(in)
				}
			})
		}
	}
}
