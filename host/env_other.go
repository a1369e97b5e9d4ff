//go:build !windows

package host

func normVar(k string) string { return k }

func sameVar(a, b string) bool { return a == b }
