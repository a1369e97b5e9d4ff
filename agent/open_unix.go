//go:build unix

package agent

import (
	"os"
	"syscall"
)

// openForContent opens a file the agent is about to read without waiting:
// a named pipe opened for reading would block until a writer came, which
// a model that can run mkfifo could arrange never to happen.
func openForContent(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
