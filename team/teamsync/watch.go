package teamsync

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"
)

// Jitter is the fraction by which Watch varies its interval, so that a
// team's machines, started together, do not all call at once.
const Jitter = 0.1

// Round is the outcome of one sync of Watch: a result or an error.
type Round struct {
	At     time.Time
	Result *Result
	Err    error
}

// Watch syncs now, then again every interval (±10 %), until ctx ends;
// report gets every round. A failed round changes nothing on disk and the
// next one follows the schedule. It returns nil when ctx ends.
func (c *Client) Watch(ctx context.Context, interval time.Duration, confirm Confirm, report func(Round)) error {
	if interval <= 0 {
		return errors.New("team sync: the watch interval must be positive")
	}
	for {
		at := time.Now()
		res, err := c.Sync(ctx, confirm)
		if ctx.Err() != nil {
			return nil
		}
		if report != nil {
			report(Round{At: at, Result: res, Err: err})
		}
		t := time.NewTimer(NextDelay(interval, rand.Float64()))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// NextDelay is interval varied by ±Jitter: u in [0, 1) picks where.
func NextDelay(interval time.Duration, u float64) time.Duration {
	return time.Duration(float64(interval) * (1 - Jitter + 2*Jitter*u))
}
