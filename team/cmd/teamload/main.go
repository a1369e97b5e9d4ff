// Command teamload plays a fleet of machines against the team server and
// reports what it carries: fetches a second, their latency, CPU-s per
// 10,000 fetches, database growth, deadlocks and failed calls; optionally
// the ListDecisions filters over seeded decisions, a fleet flush, and a
// pruning under load. It runs the servers itself, in this process, on
// the database given (docs/team.md, "Capacity").
//
//	teamload --db sqlite:/tmp/load.db --machines 100000 --rate 2000 --duration 30s
//	teamload --db postgres://u@127.0.0.1/load --replicas 2 --machines 50000 --burst --list-every 500ms
//	teamload --db sqlite:/tmp/audit.db --seed 1000000 --filters
//	teamload --db sqlite:/tmp/prune.db --seed 1500000 --rate 2000 --uploads 20 --prune-after 10s
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"

	"github.com/agenthooks/agenthooks/team/load"
)

func main() {
	var c load.Config
	flag.StringVar(&c.DB, "db", "", "database: sqlite:PATH or postgres://USER@HOST/DB (a scratch database: the run adds a team, tokens and rows)")
	flag.IntVar(&c.Replicas, "replicas", 1, "servers sharing the database (PostgreSQL)")
	flag.IntVar(&c.Machines, "machines", 10_000, "distinct machines")
	flag.BoolVar(&c.Burst, "burst", false, "machines come in a sliding window, each several times a flush interval")
	flag.IntVar(&c.BurstWindow, "burst-window", 2000, "machines in the burst's window")
	flag.Float64Var(&c.FetchRate, "rate", 0, "fetches a second (0: as fast as the connections go)")
	flag.Float64Var(&c.UploadRate, "uploads", 0, "uploads a second")
	flag.IntVar(&c.DecisionsPerUpload, "decisions-per-upload", 10, "decisions in each upload")
	flag.IntVar(&c.Connections, "connections", 16, "fetches in flight at once")
	flag.DurationVar(&c.Duration, "duration", 0, "how long the load runs (default 10s)")
	flag.DurationVar(&c.ListEvery, "list-every", 0, "an administrator lists the fleet this often, page after page, each from the next replica (0: never)")
	flag.IntVar(&c.SeedDecisions, "seed", 0, "decisions stored before the run, 8 to 29 days old")
	flag.BoolVar(&c.TimeFilters, "filters", false, "time each ListDecisions filter after seeding")
	flag.DurationVar(&c.PruneAfter, "prune-after", 0, "shorten the retention to --prune-to days this far into the run (0: never)")
	flag.IntVar(&c.PruneToDays, "prune-to", 7, "the retention, in days, --prune-after sets")
	flag.IntVar(&c.FlushRows, "flush", 0, "time one fleet write of this many new machines after the run")
	flag.Parse()
	if c.DB == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "teamload: give --db sqlite:PATH or --db postgres://…, and flags only (teamload -h lists them)")
		os.Exit(2)
	}
	c.Progress = os.Stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := load.Run(ctx, c)
	if err != nil {
		fmt.Fprintln(os.Stderr, "teamload:", err)
		os.Exit(1)
	}
	rep.Print(os.Stdout)
	if rep.Failed() {
		os.Exit(1)
	}
}
