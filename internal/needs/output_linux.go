package needs

import (
	"os"
	"strconv"
	"strings"
)

// goOutput is the stderr of the go command that runs this test binary,
// and that run's id (its pid); nil when the parent is not go (the binary
// was run by hand, or under another runner), or its stderr is a file.
func goOutput() (*os.File, string) {
	ppid := strconv.Itoa(os.Getppid())
	comm, err := os.ReadFile("/proc/" + ppid + "/comm")
	if err != nil || strings.TrimSpace(string(comm)) != "go" {
		return nil, ""
	}
	// A terminal or a pipe only: a regular file reopened here has an
	// offset of its own, and go's next write would land on the line.
	fd := "/proc/" + ppid + "/fd/2"
	if fi, err := os.Stat(fd); err != nil || fi.Mode().IsRegular() {
		return nil, ""
	}
	f, err := os.OpenFile(fd, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, ""
	}
	return f, ppid
}

// alive reports whether process pid runs.
func alive(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}
