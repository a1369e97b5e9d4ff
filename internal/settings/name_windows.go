//go:build windows

package settings

import "strings"

// Name is a variable's name as the system compares it: Windows ignores
// case.
func Name(k string) string { return strings.ToUpper(k) }
