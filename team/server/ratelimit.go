package server

import (
	"sync"
	"time"
)

// uploadLimiter bounds each member token's uploads on this replica: a
// bucket of burst uploads per token, refilled at rate a second.
// Replicas count separately; the daily volume of decisions, which the
// store counts, holds across all of them.
type uploadLimiter struct {
	rate  float64
	burst float64

	mu      sync.Mutex
	buckets map[int64]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newUploadLimiter(rate float64) *uploadLimiter {
	return &uploadLimiter{rate: rate, burst: max(1, 3*rate), buckets: map[int64]*bucket{}}
}

// allow takes one upload from token's bucket, or reports that it is empty.
func (l *uploadLimiter) allow(token int64, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > time.Minute {
		// Full buckets hold nothing worth keeping.
		for id, b := range l.buckets {
			if b.tokens+now.Sub(b.at).Seconds()*l.rate >= l.burst {
				delete(l.buckets, id)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[token]
	if !ok {
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[token] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.at).Seconds()*l.rate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
