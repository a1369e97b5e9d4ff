// Command agenthooks runs Cursor-compatible hooks for any coding agent.
// It is the small client agents run for every step: the step goes to the
// user's resident engine, or, where there is none it can trust, to a
// process of agenthooks-engine (installed beside it), with the same
// answer. Every other verb is agenthooks-engine's.
package main

import (
	"os"

	"github.com/agenthooks/agenthooks/internal/client"
)

func main() {
	os.Exit(client.Main(os.Args[1:]))
}
