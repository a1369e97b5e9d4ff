package sandbox

import "github.com/agenthooks/agenthooks/config"

// Layer is where a sandbox file sits, lowest trust first. User and project
// files merge as Cursor merges them (the project's settings win); team and
// enterprise files are managed: nothing below them can loosen what they
// set.
type Layer int

const (
	User Layer = iota
	Project
	Team
	Enterprise
)

func (l Layer) String() string {
	switch l {
	case User:
		return "user"
	case Project:
		return "project"
	case Team:
		return "team"
	case Enterprise:
		return "enterprise"
	}
	return "unknown"
}

// managed says the layer constrains the ones below it.
func (l Layer) managed() bool { return l >= Team }

// File is one sandbox.json as written. A nil field was not set, which is
// not the same as its default: a managed layer constrains only what it
// sets.
type File struct {
	Path  string
	Layer Layer
	// Root is the workspace root of a project file, the folder its
	// relative paths are read from.
	Root string

	Type                     *Type
	ReadBoundary             *string
	AdditionalReadwritePaths *[]string
	AdditionalReadonlyPaths  *[]string
	// AdditionalReadPaths is the newer name Cursor gives read grants
	// that go with readBoundary; both lists grant reading.
	AdditionalReadPaths    *[]string
	DisableTmpWrite        *bool
	EnableSharedBuildCache *bool
	NetDefault             *string
	NetAllow               *[]string
	NetDeny                *[]string
	WhenUnavailable        *string

	// Trusted is false for a project file the trust store does not vouch
	// for (it is then left out); TrustReason says why.
	Trusted     bool
	TrustReason string
	Problems    []config.Problem
}

// HasErrors says the file has a problem of severity error.
func (f *File) HasErrors() bool {
	for _, p := range f.Problems {
		if p.Severity == config.Error {
			return true
		}
	}
	return false
}
