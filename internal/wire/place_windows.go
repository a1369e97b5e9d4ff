//go:build windows

package wire

import (
	"errors"
	"io/fs"
)

// Supported reports whether this system has a resident engine: not on
// Windows yet, where every step runs in the client's own process.
const Supported = false

var errUnsupported = errors.New("the resident engine is not available on Windows")

func fileID(fs.FileInfo) string { return "" }

// Dir is unsupported on Windows.
func Dir(func(string) string) (string, error) { return "", errUnsupported }

// CheckSocket is unsupported on Windows.
func CheckSocket(string) error { return errUnsupported }
