package audit

import "sync"

// RingSize is how many records the in-memory log keeps, as Cursor does.
const RingSize = 100

// Ring keeps the most recent records; the oldest are dropped first.
type Ring struct {
	mu   sync.Mutex
	buf  [RingSize]Record
	next int
	full bool
}

// Add appends records.
func (r *Ring) Add(records ...Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rec := range records {
		r.buf[r.next] = rec
		r.next = (r.next + 1) % RingSize
		if r.next == 0 {
			r.full = true
		}
	}
}

// Records returns the kept records, oldest first.
func (r *Ring) Records() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.full {
		return append([]Record(nil), r.buf[:r.next]...)
	}
	out := make([]Record, 0, RingSize)
	out = append(out, r.buf[r.next:]...)
	return append(out, r.buf[:r.next]...)
}
