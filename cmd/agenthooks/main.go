// Command agenthooks runs Cursor-compatible hooks for any coding agent.
package main

import (
	"os"

	"github.com/agenthooks/agenthooks/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
