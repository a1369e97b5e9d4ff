package proc

// MissingProgram cannot tell on Windows, where every hook goes through
// the shell, which finds programs by its own rules (PATHEXT, the current
// folder first).
func MissingProgram(command, dir string, env []string) (name string, missing bool) {
	return "", false
}
