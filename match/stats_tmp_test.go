package match

import "testing"

func TestTmpStats(t *testing.T) {
	c := map[string]int{}
	for _, p := range append(jsPatterns, randomPatterns(3000,1)...) {
		m, err := Compile(p)
		switch {
		case err != nil:
			c["err"]++
		case m == nil:
			c["all"]++
		default:
			c[m.engine.String()]++
		}
	}
	t.Log(c)
}
