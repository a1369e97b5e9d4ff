package load

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"connectrpc.com/connect"
)

// Report is what a run measured.
type Report struct {
	Config  Config
	Elapsed time.Duration

	Fetches, FetchFailures  int64
	Uploads, UploadFailures int64
	Accepted                int64 // decisions stored by the uploads
	Lists, ListFailures     int64
	ListLatencies           []time.Duration
	Latency                 [phases]Latency // of the fetches
	UploadLatency           [phases]Latency
	// LongestWrite is, by phase, the longest a write transaction (an
	// upload, a fleet flush, a pruning's chunk, a listing) held the
	// database, on any replica.
	LongestWrite                      [phases]time.Duration
	CPUPer10k                         float64 // CPU-s of this process (servers and load) per 10,000 fetches
	Deadlocks                         int64   // PostgreSQL's count, over the run
	FleetWriteFailures, PruneFailures int
	LastServerFailure                 string
	MachinesStored                    int64

	SeedTime          time.Duration
	SeedRowsPerSecond float64
	BytesPerDecision  float64
	Filters           []FilterTime

	Pruned              int64
	LongestPruneChunk   time.Duration // the longest time one of its writes held the database
	PruneTime           time.Duration
	UploadedDuringPrune int64

	// FlushInsert and FlushUpdate are a flush's wall time and this
	// process's CPU time meanwhile (on SQLite, the write's own).
	FlushInsert, FlushUpdate [2]time.Duration

	SizeStart, SizeEnd int64
	PeakMemory         int64 // of this process, servers and load generator

	mu     sync.Mutex
	errors map[string]int
}

// Latency sums up a phase's fetches.
type Latency struct {
	N             int
	P50, P99, Max time.Duration
}

// FilterTime is one ListDecisions filter's median time.
type FilterTime struct {
	Name   string
	Rows   int
	Median time.Duration
}

func summarize(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	slices.Sort(ds)
	at := func(q float64) time.Duration { return ds[min(int(q*float64(len(ds))), len(ds)-1)] }
	return Latency{N: len(ds), P50: at(0.50), P99: at(0.99), Max: ds[len(ds)-1]}
}

// noteError counts a failed call by what and code.
func (r *Report) noteError(what string, err error) {
	code := "unknown"
	var ce *connect.Error
	if errors.As(err, &ce) {
		code = ce.Code().String()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.errors == nil {
		r.errors = map[string]int{}
	}
	r.errors[what+" "+code]++
}

// Failed reports whether any call or background write failed, or
// PostgreSQL saw a deadlock.
func (r *Report) Failed() bool {
	return r.FetchFailures > 0 || r.UploadFailures > 0 || r.ListFailures > 0 || r.FleetWriteFailures > 0 || r.PruneFailures > 0 || r.Deadlocks > 0
}

// Print writes the report for people.
func (r *Report) Print(w io.Writer) {
	c := r.Config
	mode := "round-robin"
	if c.Burst {
		mode = fmt.Sprintf("bursts (a window of %d machines, each several times a flush interval)", min(c.BurstWindow, c.Machines))
	}
	fmt.Fprintf(w, "database          %s, %d replica(s)\n", redact(c.DB), c.Replicas)
	fmt.Fprintf(w, "machines          %d distinct, %s; %d stored at the end\n", c.Machines, mode, r.MachinesStored)
	if r.SeedTime > 0 {
		fmt.Fprintf(w, "seeded            %d decisions in %.1f s (%.0f rows/s), %.0f bytes each on disk\n",
			c.SeedDecisions, r.SeedTime.Seconds(), r.SeedRowsPerSecond, r.BytesPerDecision)
	}
	for _, f := range r.Filters {
		fmt.Fprintf(w, "filter            %-26s %7.2f ms  (%d rows)\n", f.Name, ms(f.Median), f.Rows)
	}
	secs := r.Elapsed.Seconds()
	fmt.Fprintf(w, "fetches           %d in %.1f s: %.0f/s, %d failed\n", r.Fetches, secs, float64(r.Fetches)/secs, r.FetchFailures)
	names := []string{"", "during pruning", "after pruning"}
	for p, l := range r.Latency {
		if l.N == 0 {
			continue
		}
		label := "latency"
		if c.PruneAfter > 0 && p == phaseBefore {
			label = "latency before pruning"
		} else if p > phaseBefore {
			label = "latency " + names[p]
		}
		fmt.Fprintf(w, "%-17s p50 %.2f ms, p99 %.2f ms, max %.1f ms (%d fetches)\n", label, ms(l.P50), ms(l.P99), ms(l.Max), l.N)
		if u := r.UploadLatency[p]; u.N > 0 {
			fmt.Fprintf(w, "  %-15s p50 %.2f ms, p99 %.2f ms, max %.1f ms (%d uploads)\n", "uploads", ms(u.P50), ms(u.P99), ms(u.Max), u.N)
		}
		if r.LongestWrite[p] > 0 {
			fmt.Fprintf(w, "  %-15s %.1f ms (the longest a write transaction held the database, any replica)\n", "longest write", ms(r.LongestWrite[p]))
		}
	}
	if r.CPUPer10k > 0 {
		fmt.Fprintf(w, "cpu               %.2f CPU-s per 10k fetches (this process: servers and load generator; not PostgreSQL's)\n", r.CPUPer10k)
	}
	if c.UploadRate > 0 {
		fmt.Fprintf(w, "uploads           %d (%d failed), %d decisions stored\n", r.Uploads, r.UploadFailures, r.Accepted)
	}
	if c.ListEvery > 0 {
		l := summarize(r.ListLatencies)
		fmt.Fprintf(w, "ListMachines      %d, %d failed; p50 %.1f ms, max %.1f ms\n", r.Lists, r.ListFailures, ms(l.P50), ms(l.Max))
	}
	if c.PruneAfter > 0 {
		fmt.Fprintf(w, "pruned            %d decisions in %.1f s, free space given back; the longest write held the database %.0f ms; %d decisions uploaded meanwhile\n",
			r.Pruned, r.PruneTime.Seconds(), ms(r.LongestPruneChunk), r.UploadedDuringPrune)
	}
	fmt.Fprintf(w, "server failures   %d fleet writes, %d prunings failed; %d deadlocks (PostgreSQL)\n", r.FleetWriteFailures, r.PruneFailures, r.Deadlocks)
	if r.LastServerFailure != "" {
		fmt.Fprintf(w, "last failure      %s\n", r.LastServerFailure)
	}
	if c.FlushRows > 0 {
		fmt.Fprintf(w, "flush             %d machines: %.0f ms new (%.0f ms CPU here), %.0f ms again with newer reports (%.0f ms CPU here)\n",
			c.FlushRows, ms(r.FlushInsert[0]), ms(r.FlushInsert[1]), ms(r.FlushUpdate[0]), ms(r.FlushUpdate[1]))
	}
	fmt.Fprintf(w, "database size     %.1f MB at the start, %.1f MB at the end\n", mb(r.SizeStart), mb(r.SizeEnd))
	if r.PeakMemory > 0 {
		fmt.Fprintf(w, "memory            %.0f MB peak resident (this process)\n", mb(r.PeakMemory))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := make([]string, 0, len(r.errors))
	for k := range r.errors {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "errors            %s: %d\n", k, r.errors[k])
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func mb(n int64) float64 { return float64(n) / (1 << 20) }
