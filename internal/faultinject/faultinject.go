// Package faultinject lets tests make agenthooks fail where no real input
// can: a panic at a named stage of a run. Only test binaries set Hook; a
// release binary has no way to reach it, since nothing outside this module
// can import an internal package and no command-line or environment
// switch sets it.
package faultinject

// Hook is called at each stage when set; it may panic.
var Hook func(stage string)

// At calls Hook for stage when one is set.
func At(stage string) {
	if Hook != nil {
		Hook(stage)
	}
}
