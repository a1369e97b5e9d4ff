package shellquote

import "runtime"

// Command joins argv into one command line for the shell this system runs
// hooks and a user's commands through: PowerShell on Windows
// (PowerShellCommand), sh elsewhere (POSIXCommand).
func Command(argv []string) string {
	if runtime.GOOS == "windows" {
		return PowerShellCommand(argv)
	}
	return POSIXCommand(argv)
}
