// Package shellquote writes strings as words of a POSIX shell or of
// PowerShell command line, so that the shell reads back exactly the string
// and nothing in it runs. Every place that puts a path, an argument or a
// value into a command line goes through it: a second copy of quoting is a
// second place for an injection to hide.
//
// Each shell has two forms. The plain form (POSIX, PowerShell) leaves a
// word as it is when every character is in a small safe set, so a common
// command reads as typed, and quotes it otherwise; the Always form quotes
// every word, for text where a bare word could change meaning in a way the
// safe set does not see. The command forms (POSIXCommand,
// PowerShellCommand) join an argv into one line that runs its first word
// as a program.
//
// The package imports no package of the project, so every layer may use it.
package shellquote
