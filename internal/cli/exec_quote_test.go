package cli

import (
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// What sh makes of the quoted line is the argv it came from.
func TestExecQuoteRoundTripsThroughSh(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sh quoting")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	args := []string{"printf", `%s\n`, "plain", "two words", "it's", `back\slash`, `"dq"`, "$HOME", "*", "", "a\nb", "-n", "x=1", "tab\there", "é€"}
	line := execQuoteArgs(args)
	out, err := exec.Command("sh", "-c", line).Output()
	if err != nil {
		t.Fatalf("sh -c %s: %v", line, err)
	}
	want := strings.Join(args[2:], "\n") + "\n"
	if string(out) != want {
		t.Errorf("sh -c %s\n got %q\nwant %q", line, out, want)
	}
}
