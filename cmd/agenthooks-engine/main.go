// Command agenthooks-engine is agenthooks whole: every verb, and the
// user's resident engine. Agents run the small agenthooks client, which
// hands it every verb it does not answer through the engine.
package main

import (
	"os"
	"strings"

	"github.com/agenthooks/agenthooks/internal/cli"
	"github.com/agenthooks/agenthooks/internal/wire"
	"github.com/agenthooks/agenthooks/sandbox"
)

func main() {
	// Before anything else: no hook may read this process's secrets
	// (docs/sandbox.md), which the client passes through a pipe rather
	// than the environment.
	wire.Undumpable()
	takeSecrets()
	if len(os.Args) > 1 && os.Args[1] == sandbox.Verb {
		// The sandbox's trampoline, before the command line is built: it
		// runs once per sandboxed command and only enters the sandbox.
		os.Exit(sandbox.Main(os.Args[2:]))
	}
	os.Exit(cli.Main(os.Args[1:]))
}

// takeSecrets moves the secrets the client passed through a pipe into
// this process's environment (wire.PassSecrets).
func takeSecrets() {
	fd, ok := os.LookupEnv(wire.SecretsFDEnv)
	if !ok {
		return
	}
	os.Unsetenv(wire.SecretsFDEnv)
	for _, kv := range wire.TakeSecrets(fd) {
		k, v, _ := strings.Cut(kv, "=")
		os.Setenv(k, v)
	}
}
