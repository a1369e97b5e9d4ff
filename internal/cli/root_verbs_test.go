package cli

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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

// TestFlagsMatchTheDocs: every flag of a verb (and of its subcommands) is
// named in that verb's row of the docs/cli.md table, or in the page the
// row links to, so the table never hides an option --help shows.
func TestFlagsMatchTheDocs(t *testing.T) {
	root := NewRoot(&IO{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
	docs := filepath.Join("..", "..", "docs")
	data, err := os.ReadFile(filepath.Join(docs, "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{} // verb → its rows, and the pages they link to
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| `agenthooks ") {
			continue
		}
		text := line
		for _, m := range regexp.MustCompile(`\]\(([a-z-]+\.md)`).FindAllStringSubmatch(line, -1) {
			page, err := os.ReadFile(filepath.Join(docs, m[1]))
			if err != nil {
				t.Fatalf("%s links to %s: %v", line[:40], m[1], err)
			}
			text += string(page)
		}
		for _, m := range regexp.MustCompile("`agenthooks ([a-z]+)").FindAllStringSubmatch(line, -1) {
			rows[m[1]] += text
		}
	}
	rows["run"] += string(data) // run --from is told below the table
	for _, verb := range root.Commands() {
		if verb.Hidden || verb.Name() == "help" {
			continue
		}
		var walk func(c *cobra.Command)
		walk = func(c *cobra.Command) {
			c.LocalFlags().VisitAll(func(f *pflag.Flag) {
				if f.Hidden || f.Name == "help" {
					return
				}
				short := f.Shorthand != "" && regexp.MustCompile("[ `\\[|]-"+f.Shorthand+"[ `\\]|/]").MatchString(rows[verb.Name()])
				if !strings.Contains(rows[verb.Name()], "--"+f.Name) && !short {
					t.Errorf("%s: --%s is neither in its row of docs/cli.md nor in the page it links to", c.CommandPath(), f.Name)
				}
			})
			for _, sub := range c.Commands() {
				walk(sub)
			}
		}
		walk(verb)
	}
}
