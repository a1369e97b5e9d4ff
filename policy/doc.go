// Package policy evaluates policy files: YAML lists of rules, each a CEL
// condition over a hook step's payload and the decision (deny, ask,
// allow) it gives. A policy is written once and runs two ways:
//
//   - as a command hook, `agenthooks policy FILE`, which Cursor (or any
//     host) runs as a process: payload on stdin, Cursor's response on
//     stdout;
//   - in process, through Runner, which recognises that same command in
//     agenthooks' engine and evaluates the compiled, cached policy without
//     starting a process.
//
// Conditions see the payload as `input`, the step as `step`, the shell
// command line about to run as `command`, and the file's `vars`. Helper
// functions read what a shell command line really runs (Commands, through
// quoting, variables, wrappers such as sudo or bash -c, and substitutions),
// what a git push pushes, through git's aliases (AnalyzeGitPushIn: those
// given with -c, defined on the line, or configured for the repository,
// which it reads by running git), which hosts a network command
// contacts (NetHosts), and paths, URLs and MCP tool names. docs/policies.md
// is the reference.
//
// The shell analysis is static and conservative: what it cannot know (a
// program named by a command substitution, eval of a variable, a script
// piped into sh, a git subcommand that is neither git's own nor a readable
// alias) is marked dynamic, so a policy can refuse what it cannot read
// instead of letting it through.
package policy
