package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
	teamv1 "github.com/agenthooks/agenthooks/team/teamv1"
)

// TestAuditCannotBeBuried: on each store, a member token cannot put
// decisions on top of the admin's list by dating them in the future,
// cannot write under another machine's id, and is held to its upload
// rate and daily volume; lists order by the server's time, filter by
// token, and keep the member's time beside it.
func TestAuditCannotBeBuried(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			url := b.url(t)
			e := start(t, backend{b.name, func(testing.TB) string { return url }}, func(c *Config) {
				st, err := store.Open(context.Background(), url, store.Options{DailyDecisionsPerToken: 1200})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { st.Close() })
				c.Store = st
				c.UploadRate = 5
			})
			ctx := context.Background()
			adm := e.adminClient(e.admin, protocols[0])
			if _, err := adm.SetTeamAudit(ctx, connect.NewRequest(&teamv1.SetTeamAuditRequest{TeamId: e.team.ID, Audit: true, AuditRetentionDays: 7})); err != nil {
				t.Fatal(err)
			}
			other, err := adm.CreateToken(ctx, connect.NewRequest(&teamv1.CreateTokenRequest{Name: "intruder", Role: "member", TeamId: e.team.ID}))
			if err != nil {
				t.Fatal(err)
			}
			honest, intruder := e.hooksClient(e.member, protocols[0]), e.hooksClient(other.Msg.Secret, protocols[0])
			upload := func(c interface {
				UploadDecisions(context.Context, *connect.Request[teamv1.UploadDecisionsRequest]) (*connect.Response[teamv1.UploadDecisionsResponse], error)
			}, machine string, ds ...*teamv1.Decision) (*teamv1.UploadDecisionsResponse, error) {
				res, err := c.UploadDecisions(ctx, connect.NewRequest(&teamv1.UploadDecisionsRequest{Machine: &teamv1.Machine{Id: machine, Hostname: machine}, Decisions: ds}))
				if err != nil {
					return nil, err
				}
				return res.Msg, nil
			}
			now := time.Now()
			// The real deny, from the honest machine, an hour ago by its clock.
			if res, err := upload(honest, "laptop-1", &teamv1.Decision{Id: "real", AtUnixMs: now.Add(-time.Hour).UnixMilli(), Step: "beforeShellExecution", Outcome: "deny", What: "git push --force"}); err != nil || res.Accepted != 1 {
				t.Fatalf("the honest upload: %v, %v", res, err)
			}
			// 500 decisions dated in the year 9999, and 500 before the retention.
			var future, ancient []*teamv1.Decision
			for i := range 500 {
				future = append(future, &teamv1.Decision{Id: fmt.Sprint("f", i), AtUnixMs: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), Step: "stop", Outcome: "deny"})
				ancient = append(ancient, &teamv1.Decision{Id: fmt.Sprint("a", i), AtUnixMs: now.Add(-30 * 24 * time.Hour).UnixMilli(), Step: "stop", Outcome: "deny"})
			}
			res, err := upload(intruder, "laptop-2", future...)
			if err != nil || res.Accepted != 0 || res.Refused != 500 || len(res.Refusals) != maxRefusals || !strings.Contains(res.Refusals[0], "ahead of the server's clock") {
				t.Fatalf("future-dated decisions: %v, %v", res, err)
			}
			if res, err = upload(intruder, "laptop-2", ancient...); err != nil || res.Accepted != 0 || res.Refused != 500 || !strings.Contains(res.Refusals[0], "before the team's retention") {
				t.Fatalf("decisions before the retention: %v, %v", res, err)
			}
			// Another machine's id: refused, whatever the dates.
			_, err = upload(intruder, "laptop-1", &teamv1.Decision{Id: "cover", AtUnixMs: now.UnixMilli(), Step: "stop", Outcome: "deny"})
			wantCode(t, "an upload under another token's machine id", err, connect.CodePermissionDenied)
			// A decision dated 4 minutes ahead (a drifting clock) is taken,
			// but the real deny, received first, stays where the server's
			// time puts it.
			time.Sleep(5 * time.Millisecond)
			if res, err := upload(intruder, "laptop-2", &teamv1.Decision{Id: "drift", AtUnixMs: now.Add(4 * time.Minute).UnixMilli(), Step: "stop", Outcome: "deny"}); err != nil || res.Accepted != 1 {
				t.Fatalf("a decision 4 minutes ahead: %v, %v", res, err)
			}
			list, err := adm.ListDecisions(ctx, connect.NewRequest(&teamv1.ListDecisionsRequest{TeamId: e.team.ID}))
			if err != nil {
				t.Fatal(err)
			}
			got := list.Msg.Decisions
			if len(got) != 2 || got[0].Id != "drift" || got[1].Id != "real" || got[1].ReceivedAtUnixMs < now.UnixMilli() || got[1].AtUnixMs != now.Add(-time.Hour).UnixMilli() {
				t.Fatalf("the admin's list: %v", got)
			}
			toks, err := adm.ListTokens(ctx, connect.NewRequest(&teamv1.ListTokensRequest{TeamId: e.team.ID}))
			if err != nil {
				t.Fatal(err)
			}
			var honestID int64
			for _, tk := range toks.Msg.Tokens {
				if tk.Name == "laptops" {
					honestID = tk.Id
				}
			}
			byToken, err := adm.ListDecisions(ctx, connect.NewRequest(&teamv1.ListDecisionsRequest{TeamId: e.team.ID, TokenId: honestID}))
			if err != nil || len(byToken.Msg.Decisions) != 1 || byToken.Msg.Decisions[0].Id != "real" || byToken.Msg.Decisions[0].TokenId != honestID {
				t.Fatalf("the honest token's decisions: %v, %v", byToken, err)
			}

			// The rate: 5 uploads a second, a burst of 15; the intruder has used 5.
			limited := 0
			for range 20 {
				if _, err := upload(intruder, "laptop-2"); connect.CodeOf(err) == connect.CodeResourceExhausted {
					limited++
				} else if err != nil {
					t.Fatal(err)
				}
			}
			if limited == 0 {
				t.Fatal("25 uploads in a moment were all taken, at 5 a second")
			}
			// The honest token has its own bucket.
			if _, err := upload(honest, "laptop-1"); err != nil {
				t.Fatalf("the honest token while the intruder is limited: %v", err)
			}

			// The daily volume: 1200 a token; the honest token has sent 1.
			time.Sleep(time.Second) // refill
			var batch []*teamv1.Decision
			for i := range 500 {
				batch = append(batch, &teamv1.Decision{Id: fmt.Sprint("v", i), AtUnixMs: time.Now().UnixMilli(), Step: "stop", Outcome: "deny"})
			}
			for i := range 2 {
				if res, err := upload(honest, "laptop-1", batch[:500]...); err != nil || res.Accepted != 500 {
					t.Fatalf("batch %d within the daily volume: %v, %v", i, res, err)
				}
				for j := range batch {
					batch[j] = &teamv1.Decision{Id: fmt.Sprint("w", i, "-", j), AtUnixMs: time.Now().UnixMilli(), Step: "stop", Outcome: "deny"}
				}
			}
			_, err = upload(honest, "laptop-1", batch...)
			ce := wantCode(t, "an upload past the daily volume", err, connect.CodeResourceExhausted)
			if ce != nil && !strings.Contains(ce.Message(), "1200") {
				t.Fatalf("the volume refusal does not say the limit: %v", ce)
			}
		})
	}
}
