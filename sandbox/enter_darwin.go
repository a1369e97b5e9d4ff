package sandbox

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"
)

// sandboxExec is macOS's Seatbelt front end.
const sandboxExec = "/usr/bin/sandbox-exec"

// Supported says whether sandbox-exec is there to enforce the profile.
func Supported(Policy) error {
	if _, err := exec.LookPath(sandboxExec); err != nil {
		return errors.New("sandbox-exec is missing, so Seatbelt cannot be used")
	}
	return nil
}

// enter replaces this process with sandbox-exec running the command under
// the profile rendered from the policy.
func enter(j job, path string, argv, envv []string) error {
	open := j.Policy.Network.Open()
	if !open && j.ProxyPort <= 0 {
		return errors.New("the network policy cannot be enforced: no proxy")
	}
	profile := seatbeltProfile(j.Policy.files(currentEnv()), open, j.ProxyPort)
	args := append([]string{sandboxExec, "-p", profile, path}, argv[1:]...)
	err := syscall.Exec(sandboxExec, args, envv)
	return fmt.Errorf("run %s: %w", sandboxExec, err)
}
