package audit

import (
	"strconv"
	"testing"
	"time"
)

func TestRingKeepsNewest(t *testing.T) {
	for _, n := range []int{0, 1, 99, 100, 101, 250} {
		var r Ring
		for i := range n {
			r.Add(Record{ID: strconv.Itoa(i)})
		}
		got := r.Records()
		want := min(n, RingSize)
		if len(got) != want {
			t.Fatalf("n=%d: %d records, want %d", n, len(got), want)
		}
		for i, rec := range got {
			if w := strconv.Itoa(n - want + i); rec.ID != w {
				t.Fatalf("n=%d: record %d is %s, want %s", n, i, rec.ID, w)
			}
		}
	}
}

func TestNewIDUniqueAndTimed(t *testing.T) {
	now := time.UnixMilli(1700000000123)
	a, b := NewID(now), NewID(now)
	if a == b {
		t.Fatalf("ids collide: %s", a)
	}
	if a[:13] != "1700000000123" {
		t.Fatalf("id %s does not start with the timestamp", a)
	}
}
