package llm

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header map[string]string
		want   time.Duration
	}{
		{map[string]string{}, 0},
		{map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{map[string]string{"Retry-After": "0.5"}, 500 * time.Millisecond},
		{map[string]string{"Retry-After": "0"}, 0},
		{map[string]string{"Retry-After": "-3"}, 0},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After": "Sun, 01 Jun 2025 12:00:07 GMT"}, 7 * time.Second},
		{map[string]string{"Retry-After": "Sun, 01 Jun 2025 11:59:00 GMT"}, 0},
		{map[string]string{"Retry-After-Ms": "1500", "Retry-After": "9"}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "bad", "Retry-After": "9"}, 9 * time.Second},
	} {
		h := http.Header{}
		for k, v := range tc.header {
			h.Set(k, v)
		}
		if got := retryAfter(h, now); got != tc.want {
			t.Errorf("retryAfter(%v) = %s, want %s", tc.header, got, tc.want)
		}
	}
}

func TestBackoffGrowsWithinBounds(t *testing.T) {
	r := Retry{Base: 100 * time.Millisecond, Max: 1 * time.Second}.withDefaults()
	for attempt, full := range map[int]time.Duration{
		1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond,
		4: 800 * time.Millisecond, 5: time.Second, 30: time.Second,
	} {
		seen := map[time.Duration]bool{}
		for range 200 {
			d := backoff(r, attempt)
			if d < full/2 || d > full {
				t.Fatalf("backoff(attempt %d) = %s, want within [%s, %s]", attempt, d, full/2, full)
			}
			seen[d] = true
		}
		if len(seen) < 10 {
			t.Errorf("backoff(attempt %d) took only %d distinct values in 200 draws: no jitter", attempt, len(seen))
		}
	}
}
