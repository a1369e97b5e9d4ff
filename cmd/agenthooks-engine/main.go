// Command agenthooks-engine is agenthooks whole: every verb, and the
// user's resident engine. Agents run the small agenthooks client, which
// hands it every verb it does not answer through the engine.
package main

import (
	"os"

	"github.com/agenthooks/agenthooks/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
