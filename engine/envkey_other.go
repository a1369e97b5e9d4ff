//go:build !windows

package engine

// envKey is how the system compares variable names: exactly, outside
// Windows.
func envKey(name string) string { return name }
