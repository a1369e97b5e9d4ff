package state

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/session"
)

// BenchmarkWrite is one run's record written, as `agenthooks run` does:
// one transaction, one record.
func BenchmarkWrite(b *testing.B) {
	ctx := context.Background()
	s := openTest(b, Options{})
	recs := []audit.Record{testRecord("./hooks/guard.sh")}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Write(ctx, recs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteConcurrent20 is 20 goroutines writing one record each
// time: how the single writer lock holds up under contention.
func BenchmarkWriteConcurrent20(b *testing.B) {
	ctx := context.Background()
	s := openTest(b, Options{})
	recs := []audit.Record{testRecord("./hooks/guard.sh")}
	b.ReportAllocs()
	// RunParallel starts parallelism×GOMAXPROCS goroutines: at least 20.
	procs := runtime.GOMAXPROCS(0)
	b.SetParallelism((20 + procs - 1) / procs)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := s.Write(ctx, recs); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkUpdate is one session read-modify-write.
func BenchmarkUpdate(b *testing.B) {
	ctx := context.Background()
	s := openTest(b, Options{})
	for b.Loop() {
		if err := s.Update(ctx, "c", func(sess *session.Session) {
			if sess.LoopCounts == nil {
				sess.LoopCounts = map[string]int{}
			}
			sess.LoopCounts["stop"]++
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrepareBigRead is the redaction of one run of three hooks
// reading a 10 MB file: what the default options add to `agenthooks run`
// before the log write.
func BenchmarkPrepareBigRead(b *testing.B) {
	o, err := Options{Dir: b.TempDir()}.withDefaults()
	if err != nil {
		b.Fatal(err)
	}
	recs := runRecords(3, bigRead(10<<20))
	b.SetBytes(int64(len(recs[0].Payload)))
	for b.Loop() {
		o.prepare(recs, time.Now())
	}
}
