package load

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// Phases of a run's latencies.
const (
	phaseBefore = iota // before the retention is shortened (the whole run without one)
	phaseDuring        // while the pruning runs
	phaseAfter
	phases
)

// samples collects the fetches' latencies by phase.
type samples struct {
	mu  sync.Mutex
	got [phases][]time.Duration
}

func (s *samples) add(phase int, d time.Duration) {
	s.mu.Lock()
	s.got[phase] = append(s.got[phase], d)
	s.mu.Unlock()
}

// drive plays the fleet for the run's duration (and on until a pruning
// it started ends).
func (r *rig) drive(ctx context.Context, rep *Report) error {
	cfg := r.cfg
	r.progress("driving %d machines through %d replica(s) for %v", cfg.Machines, len(r.bases), cfg.Duration)
	deadlocks0, err := r.pgStats(ctx)
	if err != nil {
		return err
	}
	cpu0, cpuOK := cpuTime()
	var phase atomic.Int32
	var lat, upLat samples
	r.longestWrite() // from here on
	var fetches, fetchFails, uploads, uploadFails, accepted, lists, listFails atomic.Int64
	var next atomic.Int64
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	tokens := pace(runCtx, cfg.FetchRate)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range cfg.Connections {
		wg.Go(func() {
			client := r.hooks(c)
			for {
				if tokens != nil {
					select {
					case <-tokens:
					case <-runCtx.Done():
						return
					}
				} else if runCtx.Err() != nil {
					return
				}
				n := next.Add(1) - 1
				m := r.machine(n)
				began := time.Now()
				_, err := client.GetTeamHooks(runCtx, connect.NewRequest(&teamv1.GetTeamHooksRequest{ActiveOnly: true, OperatingSystem: "Linux",
					KnownRevision: r.rev, Machine: m}))
				if runCtx.Err() != nil {
					return
				}
				lat.add(int(phase.Load()), time.Since(began))
				fetches.Add(1)
				if err != nil {
					fetchFails.Add(1)
					rep.noteError("fetch", err)
				}
			}
		})
	}
	if cfg.UploadRate > 0 {
		up := pace(runCtx, cfg.UploadRate)
		for c := range 4 {
			wg.Go(func() {
				client := r.hooks(c)
				for seq := 0; ; seq++ {
					select {
					case <-up:
					case <-runCtx.Done():
						return
					}
					m := r.machine(int64(seq*4 + c))
					ds := make([]*teamv1.Decision, cfg.DecisionsPerUpload)
					now := time.Now().UnixMilli()
					for i := range ds {
						ds[i] = decision(fmt.Sprintf("u%d-%d-%d", c, seq, i), now, seq*len(ds)+i)
					}
					began := time.Now()
					res, err := client.UploadDecisions(runCtx, connect.NewRequest(&teamv1.UploadDecisionsRequest{Machine: m, Decisions: ds}))
					if runCtx.Err() != nil {
						return
					}
					upLat.add(int(phase.Load()), time.Since(began))
					uploads.Add(1)
					if err != nil {
						uploadFails.Add(1)
						rep.noteError("upload", err)
						continue
					}
					accepted.Add(int64(res.Msg.Accepted))
				}
			})
		}
	}
	if cfg.ListEvery > 0 {
		wg.Go(func() {
			t := time.NewTicker(cfg.ListEvery)
			defer t.Stop()
			token := ""
			for i := 0; ; i++ {
				select {
				case <-t.C:
				case <-runCtx.Done():
					return
				}
				// The administrator pages on through the listing, each
				// page from the next replica, and starts over at its end.
				began := time.Now()
				res, err := r.adminClient(i).ListMachines(runCtx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: r.teamID, PageToken: token}))
				if runCtx.Err() != nil {
					return
				}
				lists.Add(1)
				rep.ListLatencies = append(rep.ListLatencies, time.Since(began))
				token = ""
				if err != nil {
					listFails.Add(1)
					rep.noteError("list", err)
				} else {
					token = res.Msg.NextPageToken
				}
			}
		})
	}

	var pruneStart time.Time
	if cfg.PruneAfter > 0 {
		if err := sleep(ctx, cfg.PruneAfter); err != nil {
			return err
		}
		r.progress("shortening the retention to %d days", cfg.PruneToDays)
		rep.LongestWrite[phaseBefore] = r.longestWrite()
		phase.Store(phaseDuring)
		pruneStart = time.Now()
		if _, err := r.adminClient(0).SetTeamAudit(ctx, connect.NewRequest(&teamv1.SetTeamAuditRequest{TeamId: r.teamID, Audit: true,
			AuditRetentionDays: int32(cfg.PruneToDays)})); err != nil {
			return fmt.Errorf("shorten the retention: %w", err)
		}
		accepted0 := accepted.Load()
		for {
			if _, at, done := r.events.prunedSince(pruneStart); done {
				rep.PruneTime = at.Sub(pruneStart)
				rep.UploadedDuringPrune = accepted.Load() - accepted0
				break
			}
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return err
			}
			if time.Since(pruneStart) > 30*time.Minute {
				return fmt.Errorf("the pruning did not end within 30 minutes")
			}
		}
		rep.Pruned, _, _ = r.events.prunedSince(pruneStart)
		rep.LongestWrite[phaseDuring] = r.longestWrite()
		r.events.mu.Lock()
		rep.LongestPruneChunk = r.events.longestChunk
		r.events.mu.Unlock()
		phase.Store(phaseAfter)
	}
	if rest := cfg.Duration - time.Since(start); rest > 0 {
		if err := sleep(ctx, rest); err != nil {
			return err
		}
	}
	// Bursts go on until every window was played (every machine came),
	// for at most as long again as the duration.
	for cfg.Burst && next.Load() < int64(3*cfg.Machines) && time.Since(start) < 2*cfg.Duration {
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	cancel()
	wg.Wait()
	rep.LongestWrite[phase.Load()] = r.longestWrite()
	elapsed := time.Since(start)
	cpu1, _ := cpuTime()
	deadlocks1, err := r.pgStats(ctx)
	if err != nil {
		return err
	}
	rep.Elapsed = elapsed
	rep.Fetches, rep.FetchFailures = fetches.Load(), fetchFails.Load()
	rep.Uploads, rep.UploadFailures, rep.Accepted = uploads.Load(), uploadFails.Load(), accepted.Load()
	rep.Lists, rep.ListFailures = lists.Load(), listFails.Load()
	rep.Deadlocks = deadlocks1 - deadlocks0
	if cpuOK && rep.Fetches > 0 {
		rep.CPUPer10k = (cpu1 - cpu0).Seconds() / float64(rep.Fetches) * 10_000
	}
	for p := range phases {
		rep.Latency[p] = summarize(lat.got[p])
		rep.UploadLatency[p] = summarize(upLat.got[p])
	}
	r.events.mu.Lock()
	rep.FleetWriteFailures, rep.PruneFailures, rep.LastServerFailure = r.events.fleetFailures, r.events.pruneFailures, r.events.lastFailure
	r.events.mu.Unlock()
	// The fleet the database holds once every replica wrote its last
	// reports (listing writes them first).
	fctx, fcancel := context.WithTimeout(ctx, time.Minute)
	defer fcancel()
	for i := range r.bases {
		res, err := r.adminClient(i).ListMachines(fctx, connect.NewRequest(&teamv1.ListMachinesRequest{TeamId: r.teamID, PageSize: 1}))
		if err != nil {
			return fmt.Errorf("count the fleet: %w", err)
		}
		rep.MachinesStored = res.Msg.GetCounts().GetTotal()
	}
	return nil
}

// machine is the n-th fetch's machine: round-robin over all, or in a
// window sliding over them so that each of the window's machines comes
// several times in a flush interval.
func (r *rig) machine(n int64) *teamv1.Machine {
	cfg := r.cfg
	i := n % int64(cfg.Machines)
	if cfg.Burst {
		w := int64(min(cfg.BurstWindow, cfg.Machines))
		// Each window is played 3 times over, then the next one.
		slide := n / (3 * w) * w
		i = (slide + n%w) % int64(cfg.Machines)
	}
	return &teamv1.Machine{Id: fmt.Sprintf("load-%07d", i), Hostname: fmt.Sprintf("laptop-%d", i), Os: "Linux",
		Version: versions[i%int64(len(versions))], InstalledRevision: r.rev, Agents: agentSets[i%int64(len(agentSets))]}
}

var (
	versions  = []string{"v1.4.0", "v1.4.0", "v1.4.0", "v1.3.2", "v1.3.2", "v1.2.0"}
	agentSets = [][]string{{"claude"}, {"claude", "codex"}, {"cursor"}, {"cursor", "claude"}, {"gemini"}}
	steps     = []string{"beforeShellExecution", "beforeShellExecution", "beforeShellExecution", "preToolUse", "beforeMCPExecution", "stop"}
	agents    = []string{"claude", "claude", "cursor", "codex", "gemini"}
)

// decision is the i-th decision of a kind a fleet sends: mostly denied
// shell commands, in a mix of steps, agents and scripts.
func decision(id string, at int64, i int) *teamv1.Decision {
	return &teamv1.Decision{Id: id, AtUnixMs: at, Step: steps[i%len(steps)], Outcome: "deny", Decision: "deny",
		ScriptName: fmt.Sprintf("guard-%d.sh", i%20), Agent: agents[i%len(agents)], ConversationId: fmt.Sprintf("c-%d", i/50),
		What: fmt.Sprintf("git push --force origin release/%d", i%97), Message: "force pushes to release branches go through review"}
}

// pace sends a token rate times a second, in ticks of 5 ms; nil for no
// limit.
func pace(ctx context.Context, rate float64) <-chan struct{} {
	if rate <= 0 {
		return nil
	}
	out := make(chan struct{}, 1024)
	go func() {
		const tick = 5 * time.Millisecond
		t := time.NewTicker(tick)
		defer t.Stop()
		start := time.Now()
		sent := 0.0
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-t.C:
				due := rate * now.Sub(start).Seconds()
				for ; sent < due; sent++ {
					select {
					case out <- struct{}{}:
					default: // the workers are behind: the token is lost
					}
				}
			}
		}
	}()
	return out
}

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// longestWrite is the longest a write transaction of any replica held
// the database since the last call.
func (r *rig) longestWrite() time.Duration {
	var most time.Duration
	for _, st := range r.stores {
		if wt, ok := st.(store.WriteTimer); ok {
			most = max(most, wt.LongestWrite())
		}
	}
	return most
}
