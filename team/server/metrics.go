package server

import (
	"bufio"
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// The metrics are written in Prometheus's text exposition format by hand
// rather than with client_golang: the server is linked into every
// agenthooks process (the serve verb is part of the one binary), and
// client_golang's package initialisation (its default registry builds Go
// and process collectors) would add about half a millisecond to every
// `agenthooks run` a hook host starts. Two metric families need no
// library; the tests check the output with Prometheus's own parser.

// durationBuckets are the latency histogram's upper bounds, in seconds.
var durationBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10}

// whoKey holds, for the log, where authenticate writes the caller's
// token name.
type whoKey struct{}

type seriesKey struct{ procedure, code string }

type series struct {
	count   uint64
	sum     float64
	buckets []uint64 // per bound, not cumulative; the last is +Inf
}

// metrics counts RPCs and their latency per procedure and code.
type metrics struct {
	mu     sync.Mutex
	series map[seriesKey]*series
}

func newMetrics() *metrics { return &metrics{series: map[seriesKey]*series{}} }

func (m *metrics) observe(procedure, code string, d time.Duration) {
	sec := d.Seconds()
	i, _ := slices.BinarySearch(durationBuckets, sec) // first bound ≥ sec
	m.mu.Lock()
	defer m.mu.Unlock()
	k := seriesKey{procedure, code}
	s := m.series[k]
	if s == nil {
		s = &series{buckets: make([]uint64, len(durationBuckets)+1)}
		m.series[k] = s
	}
	s.count++
	s.sum += sec
	s.buckets[i]++
}

// ServeHTTP writes the metrics, series in a stable order.
func (m *metrics) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	type snap struct {
		k seriesKey
		s series
	}
	m.mu.Lock()
	all := make([]snap, 0, len(m.series))
	for k, s := range m.series {
		all = append(all, snap{k, series{s.count, s.sum, slices.Clone(s.buckets)}})
	}
	m.mu.Unlock()
	slices.SortFunc(all, func(a, b snap) int {
		if c := strings.Compare(a.k.procedure, b.k.procedure); c != 0 {
			return c
		}
		return strings.Compare(a.k.code, b.k.code)
	})

	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	b := bufio.NewWriter(w)
	b.WriteString("# HELP agenthooks_team_requests_total RPCs answered, by procedure and code.\n")
	b.WriteString("# TYPE agenthooks_team_requests_total counter\n")
	for _, x := range all {
		b.WriteString("agenthooks_team_requests_total" + labels(x.k, "") + " " + strconv.FormatUint(x.s.count, 10) + "\n")
	}
	b.WriteString("# HELP agenthooks_team_request_duration_seconds Time to answer an RPC, by procedure and code.\n")
	b.WriteString("# TYPE agenthooks_team_request_duration_seconds histogram\n")
	for _, x := range all {
		var cum uint64
		for i, n := range x.s.buckets {
			cum += n
			le := "+Inf"
			if i < len(durationBuckets) {
				le = strconv.FormatFloat(durationBuckets[i], 'g', -1, 64)
			}
			b.WriteString("agenthooks_team_request_duration_seconds_bucket" + labels(x.k, le) + " " + strconv.FormatUint(cum, 10) + "\n")
		}
		b.WriteString("agenthooks_team_request_duration_seconds_sum" + labels(x.k, "") + " " + strconv.FormatFloat(x.s.sum, 'g', -1, 64) + "\n")
		b.WriteString("agenthooks_team_request_duration_seconds_count" + labels(x.k, "") + " " + strconv.FormatUint(x.s.count, 10) + "\n")
	}
	_ = b.Flush()
}

func labels(k seriesKey, le string) string {
	s := `{procedure="` + escapeLabel(k.procedure) + `",code="` + escapeLabel(k.code) + `"`
	if le != "" {
		s += `,le="` + le + `"`
	}
	return s + "}"
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func escapeLabel(s string) string { return labelEscaper.Replace(s) }

// observe records every call's procedure, code and latency, and logs the
// administrative ones (and any failure of the members' service, whose
// successes are too many to log).
func (s *Server) observe() connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			start := time.Now()
			who := new(string) // filled in by authenticate
			resp, err := next(context.WithValue(ctx, whoKey{}, who), req)
			d := time.Since(start)
			code := "ok"
			if err != nil {
				code = connect.CodeOf(err).String()
			}
			proc := req.Spec().Procedure
			s.metrics.observe(proc, code, d)
			level := slog.LevelInfo
			// The members' calls succeed too often to log each (an
			// upload a second per hundred machines): a failure is logged.
			if (proc == teamv1connect.TeamHooksServiceGetTeamHooksProcedure || proc == teamv1connect.TeamHooksServiceUploadDecisionsProcedure) && err == nil {
				level = slog.LevelDebug
			}
			if s.log.Enabled(ctx, level) { // the fleet's polls: no arguments built for nothing
				s.log.Log(ctx, level, "rpc", "procedure", proc, "code", code, "token", *who,
					"ms", float64(d.Microseconds())/1000, "peer", req.Peer().Addr, "protocol", req.Peer().Protocol)
			}
			return resp, err
		}
	}
}
