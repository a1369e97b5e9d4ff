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

// TrustFault is a Trust that may be unable to answer at all (its store
// cannot be read). Then no project file is trusted, and each fail-closed
// hook of one stands in as failed: a fault of agenthooks' own must not
// take a project's fail-closed hooks away, which the sandboxed command of
// a model could otherwise arrange by making the store unreadable.
type TrustFault interface {
	Trust
	Fault() error
}

// RunFileTrust is a Trust that also pins the files project hooks run or
// read (Hook.RunFiles), as package trust's Store does. Load checks them
// for every hook of a trusted project file and keeps a hook whose file
// changed out of the set. With a Trust that lacks these methods, a
// trusted hooks file vouches for the files its hooks run.
type RunFileTrust interface {
	Trust
	// Trusted reports whether workspace root was trusted, whatever its
	// files hold now. A pinned file that changed in a trusted workspace
	// is an error the user must act on (hooks they chose to run stopped);
	// a workspace never trusted is the normal state of most repositories
	// and only a warning.
	Trusted(root string) bool
	// CheckRunFile reports whether file, named by a hook of workspace
	// root, is as it was when root was trusted: present with content hash
	// sum, or absent. A file neither pinned nor present is fine; one
	// present but not pinned, pinned but gone, or with another hash is
	// not, and reason names it and says what to do.
	CheckRunFile(root, file string, present bool, sum [32]byte) (ok bool, reason string)
}
