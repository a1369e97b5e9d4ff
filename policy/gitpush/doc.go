// Package gitpush reads a git command, as shellscan gives it, the way git
// would, up to what a push would update on a remote: the remote, the
// refspecs and their destinations, and --all, --mirror, --tags, --delete
// and force. It follows git's global options (-C, -c, --git-dir, …) and
// aliases: those given with -c, those the same command line defines with
// `git config`, and those configured for the repository, which it reads
// by running `git config --list` (bounded by Timeout, cached while git's
// configuration files are unchanged). A shell alias (`!…`) is read as a
// command line.
//
// What it cannot know exactly (a subcommand that is neither git's own nor
// a readable alias, a dynamic word, a configuration that cannot be read)
// makes the answer dynamic, never a guess: a caller that must not be
// bypassed refuses a dynamic push. docs/policies.md says what is
// modelled exactly and what is dynamic.
package gitpush
