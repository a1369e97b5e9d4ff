// Package examples holds the bundled example workspace: hooks for every
// common step, among them audit.sh and block-git.sh from Cursor's hooks
// documentation, unchanged. `agenthooks demo` runs it.
package examples

import "embed"

// Workspace is the example workspace; its root is "workspace".
//
//go:embed all:workspace
var Workspace embed.FS
