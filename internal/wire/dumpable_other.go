//go:build !linux

package wire

// Undumpable does nothing here: macOS and Windows have no such switch
// (docs/sandbox.md says what a hook can read there).
func Undumpable() {}
