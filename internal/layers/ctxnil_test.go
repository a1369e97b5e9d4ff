package layers

import (
	"regexp"
	"strings"
	"testing"
)

var ctxNil = regexp.MustCompile(`\bctx == nil\b`)

// TestNoNilContext holds that no function makes up for a nil
// context.Context: a caller passes one (context.Background() at the
// top), as the context package asks, and a guard would only hide the bug.
func TestNoNilContext(t *testing.T) {
	eachGoLine(t, moduleRoot(t), func(rel, _ string, n int, line string) {
		if ctxNil.MatchString(line) {
			t.Errorf("%s:%d: %s: take the caller's context as it is", rel, n, strings.TrimSpace(line))
		}
	})
}
