package store

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is Linux's USER_HZ, the unit of /proc/PID/stat's times.
const clockTick = 100

// cpuSpent is the CPU time used so far by this process and by the
// PostgreSQL server it started (pgtest's cluster: its postmaster is a
// child of this process, its backends children of that), so that a
// benchmark can say what a write cost however busy the machine was.
func cpuSpent() (self, postgres time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	type proc struct {
		ppid int
		cpu  time.Duration
	}
	procs := map[int]proc{}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range stats {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := string(data)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open || s[open+1:end] != "postgres" {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 13 {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		ppid, _ := strconv.Atoi(f[1])
		utime, _ := strconv.ParseInt(f[11], 10, 64)
		stime, _ := strconv.ParseInt(f[12], 10, 64)
		procs[pid] = proc{ppid, time.Duration(utime+stime) * time.Second / clockTick}
	}
	me := os.Getpid()
	for _, p := range procs {
		if p.ppid == me || procs[p.ppid].ppid == me && p.ppid != 0 {
			postgres += p.cpu
		}
	}
	return self, postgres
}
