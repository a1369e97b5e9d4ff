package load

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver, to read PostgreSQL's statistics

	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// seed stores the configured decisions through the store, 500 to a
// batch (an upload's most) from one machine, the machines in turn, the
// oldest first, spread evenly over the ages.
func (r *rig) seed(ctx context.Context, rep *Report) error {
	cfg := r.cfg
	r.progress("seeding %d decisions", cfg.SeedDecisions)
	start := time.Now()
	now := time.Now()
	span := cfg.SeedMaxAge - cfg.SeedMinAge
	const batch = 500
	jobs := make(chan int)
	errs := make(chan error, 4)
	workers := 1
	if !strings.HasPrefix(cfg.DB, "sqlite:") {
		workers = 4
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for first := range jobs {
				ds := make([]store.Decision, 0, batch)
				machine := first / batch % cfg.Machines
				for i := first; i < min(first+batch, cfg.SeedDecisions); i++ {
					p := decision(fmt.Sprint("s", i), 0, i)
					// Oldest first, as a fleet's uploads arrive.
					age := cfg.SeedMaxAge - time.Duration(float64(span)*float64(i)/float64(cfg.SeedDecisions))
					ds = append(ds, store.Decision{MachineID: fmt.Sprintf("load-%07d", machine), Hostname: fmt.Sprintf("laptop-%d", machine),
						RecordID: p.Id, AtMs: now.Add(-age).UnixMilli(), Step: p.Step, Outcome: p.Outcome, Decision: p.Decision,
						ScriptName: p.ScriptName, Agent: p.Agent, ConversationID: p.ConversationId, What: p.What, Message: p.Message})
				}
				if _, err := r.stores[w%len(r.stores)].AddDecisions(ctx, r.teamID, ds); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	var err error
feed:
	for first := 0; first < cfg.SeedDecisions; first += batch {
		select {
		case jobs <- first:
		case err = <-errs:
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err == nil && len(errs) > 0 {
		err = <-errs
	}
	if err != nil {
		return fmt.Errorf("seed decisions: %w", err)
	}
	// PostgreSQL's autovacuum analyzes a table this changed within a
	// minute or so; the filters are timed as they run from then on.
	if err := r.analyze(ctx); err != nil {
		return fmt.Errorf("analyze the decisions: %w", err)
	}
	rep.SeedTime = time.Since(start)
	rep.SeedRowsPerSecond = float64(cfg.SeedDecisions) / rep.SeedTime.Seconds()
	size, err := r.dbSize(ctx)
	if err != nil {
		return err
	}
	if cfg.SeedDecisions > 0 {
		rep.BytesPerDecision = float64(size-rep.SizeStart) / float64(cfg.SeedDecisions)
	}
	return nil
}

// filterCase is one ListDecisions filter the audit view offers.
type filterCase struct {
	name string
	req  *teamv1.ListDecisionsRequest
}

// timeFilters times each filter of ListDecisions through the API: the
// median of 5 calls, after one to warm up.
func (r *rig) timeFilters(ctx context.Context, rep *Report) error {
	now := time.Now()
	cases := []filterCase{
		{"none (newest 100)", &teamv1.ListDecisionsRequest{}},
		{"machine", &teamv1.ListDecisionsRequest{MachineId: "load-0000007"}},
		{"machine matching nothing", &teamv1.ListDecisionsRequest{MachineId: "nobody"}},
		{"agent", &teamv1.ListDecisionsRequest{Agent: "gemini"}},
		{"agent matching nothing", &teamv1.ListDecisionsRequest{Agent: "nobody"}},
		{"step", &teamv1.ListDecisionsRequest{Step: "stop"}},
		{"script", &teamv1.ListDecisionsRequest{ScriptName: "guard-7.sh"}},
		{"since (a day, 1000)", &teamv1.ListDecisionsRequest{SinceUnixMs: now.Add(-r.cfg.SeedMinAge - 24*time.Hour).UnixMilli(), Limit: 1000}},
		{"until (oldest week)", &teamv1.ListDecisionsRequest{UntilUnixMs: now.Add(-r.cfg.SeedMaxAge + 7*24*time.Hour).UnixMilli()}},
		{"machine and agent", &teamv1.ListDecisionsRequest{MachineId: "load-0000007", Agent: "claude"}},
	}
	adm := r.adminClient(0)
	for _, c := range cases {
		c.req.TeamId = r.teamID
		var times []time.Duration
		rows := 0
		for i := range 6 {
			began := time.Now()
			res, err := adm.ListDecisions(ctx, connect.NewRequest(c.req))
			if err != nil {
				return fmt.Errorf("filter %s: %w", c.name, err)
			}
			if i > 0 {
				times = append(times, time.Since(began))
			}
			rows = len(res.Msg.Decisions)
		}
		slices.Sort(times)
		rep.Filters = append(rep.Filters, FilterTime{Name: c.name, Rows: rows, Median: times[len(times)/2]})
	}
	return nil
}

// timeFlush times one fleet write of new machines, as a replica's flush
// writes them.
func (r *rig) timeFlush(ctx context.Context, rep *Report) error {
	ms := make([]store.MachineReport, r.cfg.FlushRows)
	now := time.Now().UnixMilli()
	for i := range ms {
		ms[i] = store.MachineReport{TeamID: r.teamID, MachineID: fmt.Sprintf("flush-%07d", i), Hostname: fmt.Sprintf("desk-%d", i), OS: "Linux",
			Version: "v1.4.0", InstalledRevision: r.rev, Agents: []string{"claude", "codex"}, TokenName: "laptops", LastSyncMs: now}
	}
	for round, what := range []*[2]time.Duration{&rep.FlushInsert, &rep.FlushUpdate} {
		for i := range ms {
			ms[i].LastSyncMs = now + int64(round)
		}
		began := time.Now()
		cpu0, _ := cpuTime()
		if _, err := r.stores[0].RecordMachines(ctx, ms); err != nil {
			return fmt.Errorf("time a flush: %w", err)
		}
		cpu1, _ := cpuTime()
		*what = [2]time.Duration{time.Since(began), cpu1 - cpu0}
	}
	return nil
}

// sizers measure the database: its size on disk, and (PostgreSQL) its
// count of deadlocks; analyze updates PostgreSQL's statistics of the
// decisions.
func sizers(url string) (size, deadlocks func(context.Context) (int64, error), analyze func(context.Context) error, closeDB func(), err error) {
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok {
		path = strings.TrimPrefix(path, "//")
		size = func(context.Context) (int64, error) {
			var total int64
			for _, f := range []string{path, path + "-wal"} {
				fi, err := os.Stat(f)
				if err == nil {
					total += fi.Size()
				}
			}
			return total, nil
		}
		return size, func(context.Context) (int64, error) { return 0, nil }, func(context.Context) error { return nil }, func() {}, nil
	}
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("open the database to measure it: the URL is not valid")
	}
	db.SetMaxOpenConns(1)
	size = func(ctx context.Context) (int64, error) {
		var n int64
		err := db.QueryRowContext(ctx, `SELECT pg_database_size(current_database())`).Scan(&n)
		return n, err
	}
	deadlocks = func(ctx context.Context) (int64, error) {
		var n int64
		err := db.QueryRowContext(ctx, `SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`).Scan(&n)
		return n, err
	}
	analyze = func(ctx context.Context) error {
		_, err := db.ExecContext(ctx, `ANALYZE decisions`)
		return err
	}
	return size, deadlocks, analyze, func() { db.Close() }, nil
}
