//go:build !unix

package load

import "time"

// cpuTime is not measured here: the report leaves the CPU figure out.
func cpuTime() (time.Duration, bool) { return 0, false }

// peakMemory is not measured here.
func peakMemory() int64 { return 0 }
