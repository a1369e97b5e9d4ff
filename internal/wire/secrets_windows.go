package wire

import "os"

// PassSecrets leaves env as it is on Windows: a process's environment is
// not shown to the user's other processes as /proc shows it.
func PassSecrets(env []string, _ bool) ([]string, *os.File, error) { return env, nil, nil }

// TakeSecrets has nothing to take on Windows.
func TakeSecrets(string) []string { return nil }
