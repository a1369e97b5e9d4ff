package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/state"
	"github.com/agenthooks/agenthooks/team/teamsync"
)

// teamReporting is what a sync tells the team server about this machine
// (its fleet view) and, when the team turned its audit on, the local log
// its decisions are read from. Close it after the sync.
type teamReporting struct {
	machine teamsync.Machine
	log     *state.Store
}

// openTeamReporting describes this machine: its id (kept in agenthooks'
// state folder), host name, version and the agents wired at user scope in
// home. What cannot be found is left out, with a warning on warn: the
// sync itself goes on.
func openTeamReporting(ctx context.Context, home string, warn io.Writer) *teamReporting {
	opts, _ := state.OptionsFrom(os.Getenv)
	dir := opts.Dir
	if dir == "" {
		dir = state.DefaultDir(os.Getenv)
	}
	r := &teamReporting{}
	if id, err := teamsync.LoadMachineID(dir); err != nil {
		fmt.Fprintf(warn, "agenthooks: warning: this machine is not reported to the team's fleet view: %v\n", err)
	} else {
		host, _ := os.Hostname()
		r.machine = teamsync.Machine{ID: id, Hostname: host, Version: version(), Agents: agents.Install().Wired(home, os.Getenv)}
	}
	if st, err := state.Open(ctx, opts); err != nil {
		fmt.Fprintf(warn, "agenthooks: warning: the local log cannot be read; no decision is sent to a team audit: %v\n", err)
	} else {
		r.log = st
	}
	return r
}

// options adds the reporting to o.
func (r *teamReporting) options(o teamsync.Options) teamsync.Options {
	o.Machine = r.machine
	if r.log != nil {
		o.Log = r.log
	}
	return o
}

func (r *teamReporting) Close() {
	if r.log != nil {
		r.log.Close()
	}
}
