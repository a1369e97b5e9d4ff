// Package examples holds the bundled example workspace: hooks for every
// common step, among them the seed documentation's audit.sh and
// block-git.sh, unchanged. `agenthooks demo` runs it.
package examples

import "embed"

// Workspace is the example workspace; its root is "workspace".
//
//go:embed all:workspace
var Workspace embed.FS
