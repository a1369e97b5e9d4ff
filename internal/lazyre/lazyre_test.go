package lazyre

import (
	"sync"
	"testing"
)

// The pattern is compiled once, and every call, from any goroutine, gets
// that one.
func TestNew(t *testing.T) {
	re := New(`^a+b$`)
	first := re()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if re() != first {
				t.Error("a second compilation")
			}
		})
	}
	wg.Wait()
	if !first.MatchString("aab") || first.MatchString("ba") {
		t.Errorf("pattern %s matches wrongly", first)
	}
}
