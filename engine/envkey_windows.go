package engine

import "strings"

// envKey is how the system compares variable names: Windows ignores case.
func envKey(name string) string { return strings.ToUpper(name) }
