package server

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/agenthooks/agenthooks/internal/lazyre"
	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// Fleet timings and bounds.
const (
	// fleetFlushEvery is how often machines' reports are written: every
	// member polls often, and one write per poll would put the database
	// back on the common path that the store's memo keeps it off.
	fleetFlushEvery = 2 * time.Second
	// fleetMaxPending bounds the reports held between writes; more
	// machines than that in one interval lose their report until the next.
	fleetMaxPending = 100_000
	// StaleAfter is how long a machine may stay silent before it stands
	// out in the fleet view.
	StaleAfter = 24 * time.Hour
)

// fleet keeps the machines' latest reports in memory and writes them in
// batches.
type fleet struct {
	st  store.Store
	log *slog.Logger
	// writing admits one flush of this process at a time: the ticker's
	// and ListMachines' would otherwise write the same rows at once.
	writing sync.Mutex
	mu      sync.Mutex
	pending map[fleetKey]store.MachineReport
	dropped int
}

// fleetKey holds one report per machine and token: a token reporting
// another's machine id does not push out the owner's report before the
// store refuses it.
type fleetKey struct {
	team    int64
	machine string
	token   int64
}

func newFleet(st store.Store, log *slog.Logger) *fleet {
	return &fleet{st: st, log: log, pending: map[fleetKey]store.MachineReport{}}
}

// note keeps a report for the next write.
func (f *fleet) note(m store.MachineReport) {
	f.mu.Lock()
	defer f.mu.Unlock()
	k := fleetKey{m.TeamID, m.MachineID, m.TokenID}
	if _, ok := f.pending[k]; !ok && len(f.pending) >= fleetMaxPending {
		f.dropped++
		return
	}
	f.pending[k] = m
}

// flush writes the reports held so far. Reports a failed write could not
// store are kept for the next one, unless a newer one came meanwhile.
func (f *fleet) flush(ctx context.Context) error {
	f.writing.Lock()
	defer f.writing.Unlock()
	f.mu.Lock()
	batch, dropped := f.pending, f.dropped
	f.pending, f.dropped = map[fleetKey]store.MachineReport{}, 0
	f.mu.Unlock()
	if dropped > 0 {
		f.log.Warn("machines' reports dropped: more machines reported in one interval than the server holds", "dropped", dropped, "max", fleetMaxPending)
	}
	if len(batch) == 0 {
		return nil
	}
	reports := make([]store.MachineReport, 0, len(batch))
	for _, m := range batch {
		reports = append(reports, m)
	}
	start := time.Now()
	refused, err := f.st.RecordMachines(ctx, reports)
	f.log.Debug("machines' reports written", "machines", len(reports), "refused", len(refused), "ms", time.Since(start).Milliseconds(), "err", err)
	// A member token is entitled to its team's hooks, so its fetch was
	// answered; only its report under a machine id another token owns is
	// not written.
	for _, m := range refused {
		f.log.Debug("a machine's report not written: another token first reported its id", "machine", m.MachineID, "token", m.TokenName, "token_id", m.TokenID)
	}
	if err != nil {
		f.mu.Lock()
		for k, m := range batch {
			if _, newer := f.pending[k]; !newer && len(f.pending) < fleetMaxPending {
				f.pending[k] = m
			}
		}
		f.mu.Unlock()
	}
	return err
}

// run writes the reports every fleetFlushEvery until ctx ends, and once
// more then.
func (f *fleet) run(ctx context.Context) {
	t := time.NewTicker(fleetFlushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if err := f.flush(ctx); err != nil {
				f.log.Warn("could not record machines' reports; they are kept for the next try", "err", err)
			}
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			if err := f.flush(fctx); err != nil {
				f.log.Warn("could not record machines' last reports", "err", err)
			}
			cancel()
			return
		}
	}
}

var (
	machineIDRE = lazyre.New(`^[A-Za-z0-9_-]{1,64}$`)
	agentRE     = lazyre.New(`^[a-z0-9][a-z0-9-]{0,31}$`)
)

// machineReport turns what a machine says of itself into a report, or
// false when it gives no usable id. What it says is shown to
// administrators, so it is bounded and made printable.
func machineReport(m *teamv1.Machine, tok store.Token, now time.Time) (store.MachineReport, bool) {
	if m == nil || !machineIDRE().MatchString(m.GetId()) {
		return store.MachineReport{}, false
	}
	r := store.MachineReport{
		TeamID:            tok.TeamID,
		MachineID:         m.GetId(),
		Hostname:          cleanText(m.GetHostname(), 255, false),
		Version:           cleanText(m.GetVersion(), 64, false),
		InstalledRevision: max(m.GetInstalledRevision(), 0),
		TokenName:         tok.Name,
		TokenID:           tok.ID,
		LastSyncMs:        now.UnixMilli(),
	}
	if slices.Contains(store.OperatingSystems, m.GetOs()) {
		r.OS = m.GetOs()
	}
	for _, a := range m.GetAgents() {
		if agentRE().MatchString(a) && !slices.Contains(r.Agents, a) && len(r.Agents) < 16 {
			r.Agents = append(r.Agents, a)
		}
	}
	return r, true
}

// machineStatus is a machine as the fleet view shows it.
func machineStatus(m store.MachineReport, revision int64, now time.Time) *teamv1.MachineStatus {
	behind := max(revision-m.InstalledRevision, 0)
	silent := now.Sub(time.UnixMilli(m.LastSyncMs)) > StaleAfter
	return &teamv1.MachineStatus{
		Machine: &teamv1.Machine{Id: m.MachineID, Hostname: m.Hostname, Os: m.OS, Version: m.Version,
			InstalledRevision: m.InstalledRevision, Agents: m.Agents},
		TeamId:         m.TeamID,
		LastSyncUnixMs: m.LastSyncMs,
		Behind:         behind,
		Stale:          behind > 0 || silent,
	}
}
