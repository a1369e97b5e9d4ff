// Package lazyre holds regular expressions compiled on first use. A
// package-level regexp.MustCompile runs at every start of every process
// that links the package, and most of agenthooks' processes (a step run in
// a process of its own, a short verb) never use most of the patterns.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles pattern the first time it is
// called and the same *regexp.Regexp after that, from any goroutine.
// pattern must be a constant that compiles: a bad one panics on first
// use, so each package's tests use its patterns.
func New(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
