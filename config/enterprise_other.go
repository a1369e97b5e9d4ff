//go:build !darwin && !windows

package config

// defaultEnterpriseFile is where MDM tools put the system-wide hooks file
// on Linux and WSL; other Unix systems follow Linux.
const defaultEnterpriseFile = "/etc/cursor/hooks.json"
