//go:build windows

package cli

import "strings"

// envName is a variable's name as the system compares it: Windows ignores
// case.
func envName(k string) string { return strings.ToUpper(k) }
