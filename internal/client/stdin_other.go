//go:build !linux

package client

// bigBuffer has nothing to give where huge pages are not asked for this
// way: a large payload goes into a doubling buffer.
func bigBuffer() []byte { return nil }
