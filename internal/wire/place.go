package wire

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// settingsVars are the variables, besides AGENTHOOKS_*, that decide what
// an engine loads and where it keeps its state: the home and config
// folders, git's configuration (git aliases in policies) and the model
// keys. Clients whose values differ are served by different engines.
var settingsVars = []string{
	"HOME", "USERPROFILE", "APPDATA", "LOCALAPPDATA",
	"XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR",
	"OPENAI_API_KEY", "ANTHROPIC_API_KEY",
}

// clientOnly are AGENTHOOKS_* variables that do not change what an engine
// does: the marker set inside hooks, and the client's own settings.
var clientOnly = map[string]bool{
	"AGENTHOOKS_HOOK":         true,
	"AGENTHOOKS_ENGINE":       true,
	"AGENTHOOKS_ENGINE_BIN":   true,
	"AGENTHOOKS_ENGINE_IDLE":  true,
	"AGENTHOOKS_ENGINE_DEBUG": true,
	"AGENTHOOKS_FRONT":        true,
	SecretsFDEnv:              true,
}

// Settings returns the entries of env that an engine's behaviour depends
// on, sorted: every AGENTHOOKS_* variable but the client's own, the
// variables in settingsVars, GIT_CONFIG*, and the variable that
// AGENTHOOKS_LLM_API_KEY_ENV names.
func Settings(env []string) []string {
	keyEnv := ""
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == "AGENTHOOKS_LLM_API_KEY_ENV" {
			keyEnv = strings.TrimSpace(v)
		}
	}
	var out []string
	for _, kv := range env {
		k, _, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch {
		case strings.HasPrefix(k, "AGENTHOOKS_") && !clientOnly[k],
			strings.HasPrefix(k, "GIT_CONFIG"),
			slices.Contains(settingsVars, k),
			k == keyEnv && keyEnv != "":
			out = append(out, kv)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

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
