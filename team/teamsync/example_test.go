package teamsync_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamsync/faketeam"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// A member's machine syncs its team's hooks into a home folder, where the
// engine loads them as the team source. The first sync asks the member to
// accept the team's hooks; a later one with nothing new costs an empty
// answer and writes no hook file.
func ExampleClient_Sync() {
	// A team server on 127.0.0.1, serving team 7 ("Acme") to one token.
	srv := &faketeam.Server{Token: "member-token"}
	srv.SetTeam(7, "Acme")
	guard := faketeam.Hook(1, "beforeShellExecution", "guard.sh",
		"#!/bin/sh\ncat >/dev/null\necho '{\"permission\":\"deny\",\"user_message\":\"pushing is for CI\"}'\n")
	guard.Matcher = "^git push"
	guard.FailClosed = true
	srv.SetHooks(guard)
	srv.SetRevision(42)
	mux := http.NewServeMux()
	mux.Handle(teamv1connect.NewTeamHooksServiceHandler(srv))
	hs := httptest.NewServer(mux)
	defer hs.Close()

	home, err := os.MkdirTemp("", "agenthooks-sync-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(home)
	// clean keeps the example's output free of its temporary paths.
	clean := func(s string) string {
		s = strings.ReplaceAll(s, hs.URL, "http://127.0.0.1:PORT")
		return filepath.ToSlash(strings.ReplaceAll(s, home, "HOME"))
	}

	c, err := teamsync.New(teamsync.Options{
		Server: hs.URL, // http:// is allowed to a loopback address only
		Token:  "member-token",
		Home:   home,
		OS:     team.Linux, // the hooks of Linux machines, whatever this one is
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	// confirm shows the first-time notice and accepts; a CLI would ask.
	confirm := func(_ context.Context, p *teamsync.Plan) (bool, error) {
		fmt.Print(clean(p.Notice()))
		return true, nil
	}

	res, err := c.Sync(ctx, confirm)
	if err != nil {
		fmt.Println("sync:", err) // nothing on disk has changed
		return
	}
	fmt.Printf("team %d %q revision %d: %d hook(s), changed %t\n", res.TeamID, res.TeamName, res.Revision, res.Hooks, res.Changed)
	entries, err := os.ReadDir(res.Dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range entries {
		fmt.Println("file:", e.Name())
	}
	manifest, err := os.ReadFile(filepath.Join(res.Dir, team.ManifestName))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(manifest))

	// Nothing changed on the server: no question, no hook file written.
	res, err = c.Sync(ctx, nil)
	if err != nil {
		fmt.Println("sync:", err)
		return
	}
	fmt.Printf("again: changed %t, hooks %d (unknown: the server said unchanged)\n", res.Changed, res.Hooks)
	// Output:
	// This team uses admin-enabled hooks. Team "Acme" (id 7) at http://127.0.0.1:PORT distributes these hooks;
	// once accepted they run on this machine whenever an agent reaches their step:
	//   beforeShellExecution  guard.sh  matcher ^git push, fails closed
	// They are written to HOME/.cursor/managed/team_7/hooks.
	// team 7 "Acme" revision 42: 1 hook(s), changed true
	// file: guard.sh
	// file: hooks.json
	// {
	//   "version": 1,
	//   "hooks": {
	//     "beforeShellExecution": [
	//       {
	//         "command": "./guard.sh",
	//         "failClosed": true,
	//         "matcher": "^git push"
	//       }
	//     ]
	//   }
	// }
	// again: changed false, hooks -1 (unknown: the server said unchanged)
}

// Options are checked before any request: a token is never sent in clear
// text to another machine, nor placed in a header it would break.
func ExampleNew() {
	for _, o := range []teamsync.Options{
		{Server: "http://teams.example.com", Token: "t", Home: "home"},
		{Server: "https://teams.example.com/", Token: "two words", Home: "home"},
		{Server: "HTTPS://Teams.Example.com/api/", Token: "t", Home: "home"},
	} {
		c, err := teamsync.New(o)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println("server:", c.Server())
	}
	fmt.Println(teamsync.OSName("darwin"), teamsync.OSName("windows"), teamsync.OSName("freebsd"))
	// Output:
	// team sync: server URL "http://teams.example.com" is plain http to another machine, which would send the token in clear text; use https (or allow it explicitly with --allow-http)
	// team sync: the token contains spaces or control characters; copy it again without them
	// server: https://teams.example.com/api
	// Macintosh Windows Linux
}
