//go:build !windows

package cli

// envName is a variable's name as the system compares it.
func envName(k string) string { return k }
