package state

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/agenthooks/agenthooks/audit"
)

// recordOverhead is what a record is counted for in the log's size on top
// of its fields' bytes: its row's header and numbers, and its entries in
// the seven indexes. An estimate; it keeps a log of many small records
// from passing MaxBytes by much in the database file.
const recordOverhead = 256

// run is one Write's records as they are stored: redacted, and each
// distinct payload once (the engine hands every hook of a run the same
// payload). It is also a line of the spool file, so it encodes as JSON.
type run struct {
	Payloads []json.RawMessage `json:"payloads,omitempty"`
	Records  []runRecord       `json:"records"`
}

// runRecord is a stored record; its Payload is always nil, the payload
// being Payloads[PayloadIndex], or none when PayloadIndex is -1.
type runRecord struct {
	audit.Record
	PayloadIndex int `json:"payload_index"`
}

// prepare stamps the records that lack a time or an id, and redacts them
// as o says, each distinct payload once.
func (o Options) prepare(recs []audit.Record, now time.Time) run {
	type seen struct {
		raw   json.RawMessage
		index int
		env   bool
	}
	var r run
	var distinct []seen
	for _, rec := range recs {
		if rec.Time.IsZero() {
			rec.Time = now
		}
		if rec.ID == "" {
			rec.ID = audit.NewID(rec.Time)
		}
		index, env := -1, false
		if len(rec.Payload) > 0 && o.Redact != RedactDrop {
			found := false
			for _, d := range distinct {
				if sameBytes(d.raw, rec.Payload) {
					index, env, found = d.index, d.env, true
					break
				}
			}
			if !found {
				var p json.RawMessage
				p, env = o.payload(rec.Payload, rec.PayloadChecked)
				if len(p) > 0 {
					r.Payloads = append(r.Payloads, p)
					index = len(r.Payloads) - 1
				}
				distinct = append(distinct, seen{rec.Payload, index, env})
			}
		}
		rec.Payload = nil
		rec.Response = o.response(rec.Response, env)
		rec.Stderr = o.stderr(rec.Stderr)
		r.Records = append(r.Records, runRecord{Record: rec, PayloadIndex: index})
	}
	r.fit(o.MaxBytes)
	return r
}

// sameBytes is bytes.Equal, at once when a and b are the same slice.
func sameBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	return bytes.Equal(a, b)
}

// fit cuts a run bigger than half the log's bound (a huge payload kept
// whole) so that one run can never push out the whole log: its payloads
// then share an eighth of the bound, and its responses and stderr another.
func (r *run) fit(maxBytes int64) {
	if r.size() <= maxBytes/2 {
		return
	}
	if n := len(r.Payloads); n > 0 {
		for i, p := range r.Payloads {
			r.Payloads[i] = truncateJSON(p, int(maxBytes/8/int64(n)))
		}
	}
	each := int(maxBytes / 8 / int64(2*len(r.Records)))
	for i := range r.Records {
		rec := &r.Records[i]
		rec.Response = truncateJSON(rec.Response, each)
		rec.Stderr = truncateString(rec.Stderr, each)
	}
}

// size is the run's bytes as the log counts them.
func (r *run) size() int64 {
	var n int64
	for _, p := range r.Payloads {
		n += int64(len(p))
	}
	for i := range r.Records {
		n += r.Records[i].size()
	}
	return n
}

// size is a record's bytes as the log counts them, its payload apart.
func (r *runRecord) size() int64 {
	return recordOverhead + int64(len(r.ID)+len(r.Step)+len(r.ConversationID)+len(r.Command)+len(r.Type)+
		len(r.Source)+len(r.File)+len(r.Response)+len(r.Stderr)+len(r.Failure)+len(r.Outcome)+len(r.Decision)+len(r.Agent))
}
