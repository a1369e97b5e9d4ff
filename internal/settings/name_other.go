//go:build !windows

package settings

// Name is a variable's name as the system compares it.
func Name(k string) string { return k }
