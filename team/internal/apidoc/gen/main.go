// Command gen rewrites the API reference of docs/team.md from
// team/proto/team.proto (package apidoc); go generate ./team runs it.
package main

import (
	"fmt"
	"os"

	"github.com/agenthooks/agenthooks/team/internal/apidoc"
)

func main() {
	if err := run("proto/team.proto", "../docs/team.md"); err != nil {
		fmt.Fprintln(os.Stderr, "apidoc:", err)
		os.Exit(1)
	}
}

func run(protoPath, docPath string) error {
	src, err := os.ReadFile(protoPath)
	if err != nil {
		return err
	}
	doc, err := os.ReadFile(docPath)
	if err != nil {
		return err
	}
	section, err := apidoc.Render(string(src))
	if err != nil {
		return err
	}
	out, err := apidoc.Splice(string(doc), section)
	if err != nil {
		return fmt.Errorf("%s: %w", docPath, err)
	}
	return os.WriteFile(docPath, []byte(out), 0o644)
}
