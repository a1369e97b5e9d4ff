package config

// Trust decides whether a project-level hooks file may run. It receives
// the file's content, not just its path, so an implementation can pin
// trust to a hash: an edit to the file (say, in a pull request) then
// revokes trust until the user reviews it again.
type Trust interface {
	// Check reports whether the file at path, in the workspace root, with
	// this content, is trusted, and why (or why not).
	Check(root, file string, content []byte) (ok bool, reason string)
}
