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
// functions read what a shell command line really runs (commands(), on
// package shellscan), what a git push pushes (gitPush(), on package
// gitpush, which follows git's aliases), which hosts a network command
// contacts (NetHosts), and paths, URLs and MCP tool names.
// docs/policies.md is the reference.
//
// The analyses are static and sound: what they cannot know exactly is
// marked dynamic, so a policy can refuse what it cannot read instead of
// letting it through.
package policy
