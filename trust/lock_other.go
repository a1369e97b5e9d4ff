//go:build !(unix && !aix) && !windows

package trust

// lock is a no-op on systems without flock or LockFileEx (AIX, Plan 9,
// wasm): there, two processes trusting at the same instant may lose one
// of the two changes; each process's own writes are still atomic.
func lock(string) (unlock func(), err error) { return func() {}, nil }
