// Package load plays a fleet against the team server, to measure what
// it can carry: N machines syncing (each fetch reports its machine) and
// uploading decisions at a rate, through one server on SQLite or several
// replicas on one PostgreSQL database, all in this process over
// 127.0.0.1 (binary Connect, keep-alive). It can seed the audit with
// decisions, time each ListDecisions filter, time a fleet flush, and
// shorten the retention in the middle of the run to measure a pruning
// under load. The teamload command and the team/e2e benchmarks run it;
// docs/team.md's capacity section quotes its figures.
package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/team/server"
	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// Config is one run.
type Config struct {
	// DB is the database: sqlite:PATH, or postgres://… (every replica
	// opens it).
	DB string
	// Replicas is how many servers share DB (1 for SQLite).
	Replicas int
	// Machines is how many distinct machines fetch.
	Machines int
	// Burst makes the machines come in a sliding window of BurstWindow
	// machines, so that each machine of the window fetches several times
	// within one fleet flush interval, as a fleet does when its laptops
	// wake up together; otherwise they come round-robin.
	Burst       bool
	BurstWindow int
	// FetchRate is the fetches a second to aim at; 0 is as fast as
	// Connections allow.
	FetchRate float64
	// UploadRate is the uploads a second, of DecisionsPerUpload each.
	UploadRate         float64
	DecisionsPerUpload int
	// Connections is how many fetches are in flight at once.
	Connections int
	// Duration is how long the load runs; in bursts, until every
	// machine came (at most twice as long).
	Duration time.Duration
	// ListEvery, when set, has an administrator list the fleet (a page
	// and the counts) that often, on each replica in turn, paging on
	// through the listing and starting over at its end.
	ListEvery time.Duration

	// SeedDecisions are stored before the run, aged between SeedMinAge
	// and SeedMaxAge, over the machines; the team keeps 30 days.
	SeedDecisions          int
	SeedMinAge, SeedMaxAge time.Duration
	// TimeFilters times each ListDecisions filter after seeding.
	TimeFilters bool
	// PruneAfter, when set, shortens the team's retention to
	// PruneToDays that far into the run, and the run goes on until the
	// pruning ends (or Duration, whichever is later).
	PruneAfter  time.Duration
	PruneToDays int
	// FlushRows, when set, times one fleet write of that many new
	// machines after the run.
	FlushRows int

	// Progress, when set, receives a line per phase.
	Progress io.Writer
}

func (c Config) withDefaults() Config {
	if c.Replicas <= 0 {
		c.Replicas = 1
	}
	if c.Machines <= 0 {
		c.Machines = 1000
	}
	if c.BurstWindow <= 0 {
		c.BurstWindow = 2000
	}
	if c.DecisionsPerUpload <= 0 {
		c.DecisionsPerUpload = 10
	}
	if c.Connections <= 0 {
		c.Connections = 16
	}
	if c.Duration <= 0 {
		c.Duration = 10 * time.Second
	}
	if c.SeedMaxAge <= 0 {
		c.SeedMinAge, c.SeedMaxAge = 8*24*time.Hour, 29*24*time.Hour
	}
	if c.PruneToDays <= 0 {
		c.PruneToDays = 7
	}
	return c
}

// rig is the servers under load and what the run needs of them.
type rig struct {
	cfg     Config
	stores  []store.Store
	bases   []string
	client  *http.Client
	teamID  int64
	rev     int64
	member  string
	admin   string
	events  *events
	dbSize  func(context.Context) (int64, error)
	pgStats func(context.Context) (deadlocks int64, err error)
	analyze func(context.Context) error
	stop    func()
}

// Run sets up the servers, plays the load and reports.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg = cfg.withDefaults()
	if strings.HasPrefix(cfg.DB, "sqlite:") && cfg.Replicas > 1 {
		return nil, errors.New("load: SQLite is one server's database: use --replicas 1, or a postgres:// URL")
	}
	r, err := setUp(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer r.stop()
	rep := &Report{Config: cfg}
	if rep.SizeStart, err = r.dbSize(ctx); err != nil {
		return nil, err
	}
	if cfg.SeedDecisions > 0 {
		if err := r.seed(ctx, rep); err != nil {
			return nil, err
		}
	}
	if cfg.TimeFilters {
		if err := r.timeFilters(ctx, rep); err != nil {
			return nil, err
		}
	}
	if err := r.drive(ctx, rep); err != nil {
		return nil, err
	}
	if cfg.FlushRows > 0 {
		if err := r.timeFlush(ctx, rep); err != nil {
			return nil, err
		}
	}
	if rep.SizeEnd, err = r.dbSize(ctx); err != nil {
		return nil, err
	}
	rep.PeakMemory = peakMemory()
	return rep, nil
}

func (r *rig) progress(format string, a ...any) {
	if r.cfg.Progress != nil {
		fmt.Fprintf(r.cfg.Progress, "teamload: "+format+"\n", a...)
	}
}

// setUp opens the replicas' stores and servers on 127.0.0.1, and makes
// the team (10 hooks, audit on for 30 days) and its tokens.
func setUp(ctx context.Context, cfg Config) (*rig, error) {
	r := &rig{cfg: cfg, events: &events{}}
	var stops []func()
	r.stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	fail := func(err error) (*rig, error) {
		r.stop()
		return nil, err
	}
	log := slog.New(r.events)
	for range cfg.Replicas {
		st, err := store.Open(ctx, cfg.DB, store.Options{})
		if err != nil {
			return fail(err)
		}
		stops = append(stops, func() { st.Close() })
		r.stores = append(r.stores, st)
		srv, err := server.New(server.Config{Store: st, Logger: log})
		if err != nil {
			return fail(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return fail(err)
		}
		sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		done := make(chan error, 1)
		go func() { done <- srv.Serve(sctx, ln) }()
		stops = append(stops, func() { cancel(); <-done })
		r.bases = append(r.bases, "http://"+ln.Addr().String())
	}
	transport := &http.Transport{MaxIdleConns: 4 * cfg.Connections, MaxIdleConnsPerHost: 2 * cfg.Connections}
	r.client = &http.Client{Transport: transport, Timeout: time.Minute}
	stops = append(stops, transport.CloseIdleConnections)
	st := r.stores[0]
	team, err := st.CreateTeam(ctx, fmt.Sprintf("load-%d", time.Now().UnixNano()))
	if err != nil {
		return fail(err)
	}
	r.teamID = team.ID
	suffix := fmt.Sprint(team.ID)
	if _, r.member, err = st.CreateToken(ctx, "load-laptops-"+suffix, store.RoleMember, team.ID); err != nil {
		return fail(err)
	}
	if _, r.admin, err = st.CreateToken(ctx, "load-admin-"+suffix, store.RoleAdmin, 0); err != nil {
		return fail(err)
	}
	for i := range 10 {
		h := store.Hook{Step: "beforeShellExecution", ScriptName: fmt.Sprintf("hook-%d.sh", i), Active: true,
			ScriptContent: "#!/bin/sh\n" + strings.Repeat("# policy\n", 450), Matcher: "^git push"}
		if _, r.rev, err = st.CreateHook(ctx, "load", team.ID, h); err != nil {
			return fail(err)
		}
	}
	if _, err := st.SetTeamAudit(ctx, team.ID, true, 30); err != nil {
		return fail(err)
	}
	var closeDB func()
	if r.dbSize, r.pgStats, r.analyze, closeDB, err = sizers(cfg.DB); err != nil {
		return fail(err)
	}
	stops = append(stops, closeDB)
	return r, nil
}

// hooks and admins are the replica's clients, by index.
func (r *rig) hooks(i int) teamv1connect.TeamHooksServiceClient {
	return teamv1connect.NewTeamHooksServiceClient(r.client, r.bases[i%len(r.bases)], bearer(r.member))
}

func (r *rig) adminClient(i int) teamv1connect.AdminServiceClient {
	return teamv1connect.NewAdminServiceClient(r.client, r.bases[i%len(r.bases)], bearer(r.admin))
}

// redact drops a URL's password.
func redact(db string) string {
	if u, err := url.Parse(db); err == nil && u.User != nil {
		return u.Redacted()
	}
	return db
}
