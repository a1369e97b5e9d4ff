//go:build !windows

package host

func normVar(k string) string { return k }
