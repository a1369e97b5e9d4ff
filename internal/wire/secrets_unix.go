//go:build unix

package wire

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// maxSecrets bounds what is passed through the pipe: it is written
// before the reader runs, so it must fit in the pipe's buffer.
const maxSecrets = 60 << 10

// PassSecrets prepares env for a process of the engine binary: the
// secrets leave the environment and go into a pipe, whose read end the
// process inherits. inherit says how: true for an exec that replaces
// this process (the descriptor must survive exec), false for a child
// started with os/exec, which gets it as its first extra file (fd 3).
// The caller closes the returned file once the process has started (or
// after a failed exec). Without secrets, or when they do not fit, env is
// returned as it is and the file is nil.
func PassSecrets(env []string, inherit bool) ([]string, *os.File, error) {
	rest, secrets := SplitSecrets(env)
	size := 0
	for _, kv := range secrets {
		size += len(kv) + 1
	}
	if len(secrets) == 0 || size > maxSecrets {
		return env, nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return env, nil, fmt.Errorf("secrets pipe: %w", err)
	}
	_, err = io.WriteString(w, strings.Join(secrets, "\x00"))
	w.Close()
	if err != nil {
		r.Close()
		return env, nil, fmt.Errorf("secrets pipe: %w", err)
	}
	fd := 3
	if inherit {
		nfd, err := syscall.Dup(int(r.Fd()))
		r.Close()
		if err != nil {
			return env, nil, fmt.Errorf("secrets pipe: %w", err)
		}
		r, fd = os.NewFile(uintptr(nfd), "secrets"), nfd
	}
	return append(rest, SecretsFDEnv+"="+strconv.Itoa(fd)), r, nil
}

// TakeSecrets is the other end, first thing in a process of the engine
// binary: fd is SecretsFDEnv's value; it returns the secrets (NAME=value)
// read from that descriptor, and closes it. The caller puts them in its
// environment (not the initial one the kernel shows).
func TakeSecrets(fd string) []string {
	n, err := strconv.Atoi(fd)
	if err != nil || n < 3 {
		return nil
	}
	f := os.NewFile(uintptr(n), "secrets")
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSecrets))
	if err != nil {
		return nil
	}
	var out []string
	for _, kv := range strings.Split(string(b), "\x00") {
		if k, _, ok := strings.Cut(kv, "="); ok && k != "" {
			out = append(out, kv)
		}
	}
	return out
}
