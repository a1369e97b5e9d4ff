//go:build !linux

package store

import "time"

// cpuSpent is measured on Linux only.
func cpuSpent() (self, postgres time.Duration) { return 0, 0 }
