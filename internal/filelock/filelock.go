// Package filelock takes exclusive advisory locks on open files: flock on
// Unix, LockFileEx on Windows. The locks belong to the open file, so two
// opens in one process exclude each other as two processes do, and a lock
// dies with its process. On systems with neither (AIX, Plan 9, wasm) the
// functions do nothing: every lock is granted at once.
package filelock
