package agent

import "os"

// openForContent opens a file the agent is about to read. Opening a named
// pipe's client end does not wait on Windows.
func openForContent(path string) (*os.File, error) {
	return os.Open(path)
}
