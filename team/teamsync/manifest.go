package teamsync

import "github.com/agenthooks/agenthooks/team"

// manifest renders the hooks.json that runs hooks (team.Manifest), in
// the server's order.
func manifest(hooks []Hook) ([]byte, error) {
	entries := make([]team.Entry, len(hooks))
	for i, h := range hooks {
		entries[i] = team.Entry{Step: h.Step, Command: h.Command, Matcher: h.Matcher, Timeout: h.Timeout, FailClosed: h.FailClosed}
	}
	return team.Manifest(entries)
}
