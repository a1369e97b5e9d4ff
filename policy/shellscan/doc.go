// Package shellscan reads a shell command line statically and says what
// it would run: every simple command, through quoting, variables assigned
// earlier on the line, lists, pipelines, subshells, control structures,
// functions, command and process substitutions, and the programs that run
// other programs (sudo, env, xargs, find -exec, bash -c, eval, …), each
// with its arguments, its environment, the wrappers it was found inside
// and the directory it runs in.
//
// The reading is sound rather than complete: what it cannot know exactly
// (a program named by a command substitution, eval of a variable, a
// script fed to a shell on its input, a construct it does not model) is
// reported as a dynamic command or a dynamic argument, never a guess, so
// that a caller can refuse what it cannot read. docs/policies.md lists,
// construct by construct, what is modelled exactly and what is dynamic.
//
// The package runs no process and reads no file: Commands is a pure
// function of the line, bounded in time and memory for hostile input.
package shellscan
