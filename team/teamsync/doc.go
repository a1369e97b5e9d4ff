// Package teamsync installs a team's hooks on a member's machine: it fetches
// them from a team server (GetTeamHooks, with a member token) and writes
// them where the engine loads the team source,
// ~/.cursor/managed/team_<id>/hooks/, as scripts plus a hooks.json
// manifest that runs them.
//
// The team folder holds:
//
//	team_<id>/hooks/         the live set: hooks.json and the scripts
//	team_<id>/sync.json      what was synced: server, team, revision, digests, acceptance
//	team_<id>/sync.lock      serialises syncs of the same team
//	team_<id>/hooks.new-*    a set being staged (transient)
//	team_<id>/hooks.old-*    a set being replaced (transient, platforms without an atomic swap)
//
// A new set is written whole into a fresh staging folder and swapped in
// with one rename: on Linux renameat2(RENAME_EXCHANGE) and on macOS
// renameatx_np(RENAME_SWAP) exchange the two folders atomically, so a
// reader opening hooks/hooks.json sees the old set or the new one, never
// a mix. Elsewhere (Windows) the live folder is renamed away and the new
// one renamed in: between the two renames there is no hooks folder, which
// the engine reads as "no team hooks" for that instant, and never as half
// a set.
//
// Nothing the server sends is trusted: script names must be plain file
// names, steps must be known, sizes are bounded, and the whole set is
// refused (the last good one kept) when any hook breaks a rule. Every
// write goes through an os.Root of the team folder, after checking that
// neither the managed folder nor the team folder is a symlink, so nothing
// is written outside ~/.cursor/managed/team_<id>/.
//
// The package is named after its folder; importers usually rename it
// (teamsync) to keep the standard library's sync at hand.
package teamsync
