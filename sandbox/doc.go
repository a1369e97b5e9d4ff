// Package sandbox is Cursor's sandbox.json for every agent: it reads the
// sandbox files of every layer (user, project, team, enterprise), merges
// them into one Policy, and encloses a command in it.
//
// Hooks decide whether a command may run; the sandbox contains what it does
// once it runs. A hook cannot see inside ./deploy.sh or python -c …; the
// kernel can. On Linux the command is entered through a trampoline (Enter,
// reached through the engine binary's hidden __sandbox verb): no_new_privs,
// Landlock for files and TCP ports, a seccomp filter for the sockets
// Landlock does not cover, and a local allow-list proxy for network access
// by name. On macOS a Seatbelt profile is rendered from the same Policy.
// Where the kernel offers nothing, a command runs open only when the
// policy says so, never silently (Policy.Unavailable).
//
// The package imports config (locations, problems) and nothing above it;
// docs/sandbox.md is the user's side of it.
package sandbox
