//go:build linux

package proc

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxWriterRounds bounds the scans of killWriters. One round normally
// suffices; more catch what a holder forked while it was being scanned. A
// holder that forks faster than /proc can be read is given up on after
// these rounds: Run still returns on time, since it closes its own ends.
const maxWriterRounds = 8

// killWriters SIGKILLs every process that still holds the write end of one
// of pipes (our read ends of the hook's stdout and stderr), together with
// the process group it leads when it made one (setsid, setpgid(0, 0)).
//
// Only the hook and its descendants can hold those write ends: the pipes
// are created close-on-exec and handed to the hook's process alone. So the
// holders are exactly the descendants that kept the hook's output, wherever
// they moved (another process group, another session, a double fork), and
// a job that let go of the output is never one of them. (A process the
// tree handed a write end to, over a unix socket, took the hook's output
// and goes with it; one the tree made run as another user cannot be
// inspected or signalled, and is left alone.) A process group kill cannot
// find a descendant that left the group; this can.
//
// It reads all of /proc, so it runs only when a hook is being torn down and
// something still holds its output, never on a normal ending.
func killWriters(pipes ...*os.File) {
	targets := pipeLinks(pipes)
	if len(targets) == 0 {
		return
	}
	s := &writerScan{targets: targets, self: os.Getpid(), killed: map[procID]bool{}}
	for range maxWriterRounds {
		if !s.round() {
			return
		}
	}
}

// pipeLinks is what /proc/PID/fd/N reads for each pipe ("pipe:[INODE]";
// both ends of a pipe share the inode). It uses Stat, not Fd: Fd would put
// the file in blocking mode, and Close could no longer wake its reader.
func pipeLinks(pipes []*os.File) []string {
	var links []string
	for _, f := range pipes {
		fi, err := f.Stat()
		if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			continue
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		links = append(links, "pipe:["+strconv.FormatUint(st.Ino, 10)+"]")
	}
	return links
}

// procID names one process for the life of the scan: a pid and its start
// time, so a pid reused between rounds is not mistaken for one killed.
type procID struct {
	pid   int
	start string
}

// writerScan is one teardown's search for the holders of the hook's pipes.
type writerScan struct {
	targets []string
	self    int
	killed  map[procID]bool
}

// round reads /proc once and kills each holder not killed before. It
// reports whether it found such a holder, i.e. whether another round may
// find what that holder forked.
func (s *writerScan) round() bool {
	d, err := os.Open("/proc")
	if err != nil {
		return false
	}
	names, err := d.Readdirnames(-1)
	_ = d.Close()
	if err != nil {
		return false
	}
	fresh := false
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == s.self {
			continue
		}
		if w := s.holds(pid); w.writes && s.kill(pid, w) {
			fresh = true
		}
	}
	return fresh
}

// writing is what a process holds of the hook's pipes.
type writing struct {
	writes    bool // it holds a write end
	inherited bool // at least one such descriptor survives exec
}

// holds reports whether pid holds the write end of one of the pipes. A
// process we may not inspect (another user's) cannot have received it
// from the hook's tree unless that tree changed users, and cannot be
// signalled by us anyway.
func (s *writerScan) holds(pid int) writing {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
	d, err := os.Open(dir)
	if err != nil {
		return writing{}
	}
	fds, err := d.Readdirnames(-1)
	_ = d.Close()
	if err != nil {
		return writing{}
	}
	var w writing
	for _, fd := range fds {
		link, err := os.Readlink(dir + fd)
		if err != nil || !s.isTarget(link) {
			continue
		}
		flags, ok := fdFlags(pid, fd)
		if !ok || flags&unix.O_ACCMODE == unix.O_RDONLY {
			continue // our read end, or a copy of it
		}
		w.writes = true
		if flags&unix.O_CLOEXEC == 0 {
			w.inherited = true
		}
	}
	return w
}

func (s *writerScan) isTarget(link string) bool {
	for _, t := range s.targets {
		if link == t {
			return true
		}
	}
	return false
}

// fdFlags reads the open flags of descriptor fd of pid, with O_CLOEXEC set
// when the descriptor is close-on-exec.
func fdFlags(pid int, fd string) (int, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/fdinfo/" + fd)
	if err != nil {
		return 0, false
	}
	for line := range bytes.Lines(b) {
		v, ok := bytes.CutPrefix(line, []byte("flags:"))
		if !ok {
			continue
		}
		flags, err := strconv.ParseInt(string(bytes.TrimSpace(v)), 8, 64)
		return int(flags), err == nil
	}
	return 0, false
}

// kill SIGKILLs pid, and the group it leads, and reports whether pid had
// not been killed before. A pidfd pins the process between the check and
// the signal, so a pid that died and was reused in between is not hit;
// where pidfds are unavailable (old kernels, seccomp) it falls back to
// kill(2), as the group kill does.
func (s *writerScan) kill(pid int, w writing) bool {
	pidfd, err := unix.PidfdOpen(pid, 0)
	switch {
	case err == nil:
		defer func() { _ = unix.Close(pidfd) }()
		// Pinned now; check it is still the holder and not a reused pid.
		if !s.holds(pid).writes {
			return false
		}
	case errors.Is(err, unix.ESRCH):
		return false
	default:
		pidfd = -1
	}
	st, ok := readStat(pid)
	if !ok {
		return false
	}
	id := procID{pid: pid, start: st.start}
	if s.killed[id] {
		return false // dying already
	}
	if s.forkedNotExeced(pid, st, w) {
		return false
	}
	s.killed[id] = true
	if st.pgid == pid {
		// It made this group; its members are its own descendants. The
		// pinned pid cannot be another group's id while it lives.
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
	if pidfd >= 0 {
		_ = unix.PidfdSendSignal(pidfd, unix.SIGKILL, nil, 0)
	} else {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return true
}

// forkedNotExeced reports that pid is a child this process forked that has
// not yet exec'd (another hook being started at this moment): for a few
// microseconds it holds copies of every descriptor of ours, all of them
// close-on-exec, which is never how the hook's tree holds its output.
func (s *writerScan) forkedNotExeced(pid int, st procStat, w writing) bool {
	if st.ppid != s.self || w.inherited {
		return false
	}
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil {
		return false
	}
	ours, err := os.Readlink("/proc/self/exe")
	return err == nil && exe == ours
}

// procStat is what killWriters needs of /proc/PID/stat.
type procStat struct {
	ppid, pgid int
	start      string // start time in clock ticks since boot, as written
}

// readStat parses /proc/PID/stat. The command name may hold spaces and
// parentheses, so fields are counted from the last ')'.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
	// cmajflt utime stime cutime cstime priority nice num_threads
	// itrealvalue starttime ...
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return procStat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		return procStat{}, false
	}
	return procStat{ppid: ppid, pgid: pgid, start: f[19]}, true
}
