package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestVerbsMatchTheDocs holds the verbs list in root.go and the verb table
// of docs/cli.md together: every verb is documented, every documented verb
// exists, and no verb is listed twice.
func TestVerbsMatchTheDocs(t *testing.T) {
	root := NewRoot(&IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	var got []string
	for _, c := range root.Commands() {
		got = append(got, c.Name())
	}
	if len(got) != len(verbs()) {
		t.Errorf("%d verbs build %d commands: a name is taken twice", len(verbs()), len(got))
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile("`agenthooks ([a-z]+)").FindAllStringSubmatch(string(data), -1) {
		if !slices.Contains(documented, m[1]) {
			documented = append(documented, m[1])
		}
	}
	for _, v := range got {
		if !slices.Contains(documented, v) {
			t.Errorf("verb %s is not in docs/cli.md", v)
		}
	}
	for _, d := range documented {
		if !slices.Contains(got, d) && d != "completion" && d != "help" {
			t.Errorf("docs/cli.md names `agenthooks %s`, which is no verb", d)
		}
	}
}
