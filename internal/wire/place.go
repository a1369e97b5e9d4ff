package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// Settings returns the entries of env that an engine's behaviour depends
// on, sorted (settings.Separating): clients whose values differ are
// served by different engines. Git's variables are not among them: a
// policy reads them from each request's own environment.
func Settings(env []string) []string { return settings.Separating(env) }

// SocketName is the socket's file name for a client environment: one
// engine per set of settings, named by a digest (no value shows in it).
func SocketName(env []string) string {
	h := sha256.New()
	for _, kv := range Settings(env) {
		h.Write([]byte(kv))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("engine-v%d-%s.sock", Protocol, hex.EncodeToString(h.Sum(nil))[:20])
}

// LockFile is the engine's lock beside its socket (on Windows, beside the
// path that names its pipe): held by the engine that serves, or is on its
// way in or out, for as long as it lives.
func LockFile(sock string) string { return sock + ".lock" }

// Identity names a binary as it is on disk now: its path, size,
// modification time and file id. A rebuilt or reinstalled binary has
// another identity, so an engine started from the old one is replaced.
func Identity(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("identity of %s: %w", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("identity of %s: %w", path, err)
	}
	return fmt.Sprintf("%s|%d|%d|%s", abs, fi.Size(), fi.ModTime().UnixNano(), fileID(fi)), nil
}
