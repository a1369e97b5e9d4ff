package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// BenchmarkGetTeamHooks measures GetTeamHooks through real HTTP on
// 127.0.0.1 (Connect protocol, HTTP/2 without TLS, 8 calls at once per
// CPU), against a team of 10 hooks with 4 KiB scripts: "unchanged" is a
// polling client that is up to date, "full" one that fetches everything.
// Each call also authenticates its token against the store. Run with
// e.g. -bench GetTeamHooks -benchtime 2000x to bound it by count.
func BenchmarkGetTeamHooks(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			e := start(b, be, nil)
			ctx := context.Background()
			adm := e.adminClient(e.admin, protocols[0])
			var rev int64
			for i := range 10 {
				h := sampleHook(fmt.Sprintf("hook-%d.sh", i))
				h.ScriptContent = "#!/bin/sh\n" + strings.Repeat("# padding to 4 KiB\n", 4096/19)
				r, err := adm.CreateHook(ctx, connect.NewRequest(&teamv1.CreateHookRequest{TeamId: e.team.ID, Hook: h}))
				if err != nil {
					b.Fatal(err)
				}
				rev = r.Msg.Revision
			}
			for _, mode := range []struct {
				name  string
				known int64
				hooks int
			}{{"unchanged", rev, 0}, {"full", 0, 10}} {
				b.Run(mode.name, func(b *testing.B) {
					client := e.hooksClient(e.member, protocol{"connect-h2c", h2cClient, nil})
					b.SetParallelism(8)
					b.ResetTimer()
					start := time.Now()
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							r, err := client.GetTeamHooks(ctx, connect.NewRequest(&teamv1.GetTeamHooksRequest{KnownRevision: mode.known, ActiveOnly: true}))
							if err != nil {
								b.Error(err)
								return
							}
							if len(r.Msg.Hooks) != mode.hooks {
								b.Errorf("%d hooks, want %d", len(r.Msg.Hooks), mode.hooks)
								return
							}
						}
					})
					b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
				})
			}
		})
	}
}
