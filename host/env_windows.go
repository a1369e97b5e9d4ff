//go:build windows

package host

import "strings"

// Windows environment names are case-insensitive.
func normVar(k string) string { return strings.ToUpper(k) }
