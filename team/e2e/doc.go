// Package e2e holds end-to-end tests of team hooks, from the
// administrator to the member's engine: the team server (team/server on
// team/store, SQLite and PostgreSQL), its dashboard driven in a real
// headless Chromium, the sync client (team/teamsync) writing into a
// temporary home, and the engine loading and running what it wrote.
//
// The package has no code of its own; everything is in its tests.
package e2e
