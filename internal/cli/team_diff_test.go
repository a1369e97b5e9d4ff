package cli

import (
	"fmt"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	var a, b strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&a, "%d\n", i)
		switch i {
		case 3:
			b.WriteString("three\n")
		case 15:
		default:
			fmt.Fprintf(&b, "%d\n", i)
		}
	}
	b.WriteString("21")
	want := `--- a
+++ b
@@ -1,6 +1,6 @@
 1
 2
-3
+three
 4
 5
 6
@@ -12,9 +12,9 @@
 12
 13
 14
-15
 16
 17
 18
 19
 20
+21
\ No newline at end of file
`
	if got := unifiedDiff("a", "b", a.String(), b.String()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := unifiedDiff("a", "b", "x\n", "x\n"); got != "" {
		t.Fatalf("equal texts: %q", got)
	}
	if got := unifiedDiff("/dev/null", "b", "", "x\n"); got != "--- /dev/null\n+++ b\n@@ -0,0 +1 @@\n+x\n" {
		t.Fatalf("a new file: %q", got)
	}
}
