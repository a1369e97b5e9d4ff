//go:build unix

package e2e

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/agenthooks/agenthooks/internal/needs"
	"github.com/agenthooks/agenthooks/team/internal/pgtest"
	"github.com/agenthooks/agenthooks/team/server"
	"github.com/agenthooks/agenthooks/team/store"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// BenchmarkUnchangedFetches loads the fleet's common case, a member
// polling with the current known_revision, with real HTTP load tools over
// 127.0.0.1 (`apt-get install hey wrk`): 16 keep-alive connections,
// Connect protocol with binary Protobuf, a team of 10 hooks. SQLite is
// one server; PostgreSQL is two replicas on one database, half of the
// connections on each. hey runs are bounded by count (loadRequests
// fetches, and a minute at most), wrk runs by time (loadSeconds). The
// figure is the fetches per second the tool reports, summed over the
// replicas, as "fetches/s"; every answer must be 200. The tool shares the
// 2 cores with the server: hey spends more of them per request than the
// server does, wrk far less. Run: go test -run '^$' -bench
// UnchangedFetches -benchtime 1x ./team/e2e
func BenchmarkUnchangedFetches(b *testing.B) {
	tools := map[string]string{}
	for _, name := range []string{"hey", "wrk"} {
		path, err := exec.LookPath(name)
		if err != nil {
			needs.Missing(b, name+" is not installed: apt-get install hey wrk (the load tools of the team server's benchmark)")
		}
		tools[name] = path
	}
	for _, tool := range []string{"hey", "wrk"} {
		b.Run("sqlite/"+tool, func(b *testing.B) {
			loadFleet(b, tool, tools[tool], "sqlite:"+filepath.Join(b.TempDir(), "team.db"), 1)
		})
		b.Run("postgres-2-replicas/"+tool, func(b *testing.B) {
			loadFleet(b, tool, tools[tool], pgtest.URL(b), 2)
		})
	}
}

const (
	loadRequests    = 200_000
	loadSeconds     = 8
	loadConnections = 16
)

func loadFleet(b *testing.B, tool, bin, dbURL string, replicas int) {
	ctx := context.Background()
	var bases []string
	var st0 store.Store
	for i := range replicas {
		st, err := store.Open(ctx, dbURL, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { st.Close() })
		if i == 0 {
			st0 = st
		}
		srv, err := server.New(server.Config{Store: st})
		if err != nil {
			b.Fatal(err)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		sctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- srv.Serve(sctx, ln) }()
		b.Cleanup(func() { cancel(); <-done })
		bases = append(bases, "http://"+ln.Addr().String())
	}
	team, err := st0.CreateTeam(ctx, "fleet")
	if err != nil {
		b.Fatal(err)
	}
	_, secret, err := st0.CreateToken(ctx, "laptops", store.RoleMember, team.ID)
	if err != nil {
		b.Fatal(err)
	}
	var rev int64
	for i := range 10 {
		h := store.Hook{Step: "beforeShellExecution", ScriptName: fmt.Sprintf("hook-%d.sh", i), Active: true,
			ScriptContent: "#!/bin/sh\n" + strings.Repeat("# policy\n", 450), Matcher: "^git push"}
		if _, rev, err = st0.CreateHook(ctx, "alice", team.ID, h); err != nil {
			b.Fatal(err)
		}
	}
	body, err := proto.Marshal(&teamv1.GetTeamHooksRequest{ActiveOnly: true, OperatingSystem: "Linux", KnownRevision: rev})
	if err != nil {
		b.Fatal(err)
	}
	bodyFile := filepath.Join(b.TempDir(), "request.bin")
	if err := os.WriteFile(bodyFile, body, 0o600); err != nil {
		b.Fatal(err)
	}

	b.ResetTimer()
	var mu sync.Mutex
	var total float64
	var wg sync.WaitGroup
	script := filepath.Join(b.TempDir(), "fetch.lua")
	if err := os.WriteFile(script, []byte(wrkScript(body, secret)), 0o600); err != nil {
		b.Fatal(err)
	}
	for _, base := range bases {
		wg.Go(func() {
			url := base + "/agenthooks.team.v1.TeamHooksService/GetTeamHooks"
			conns := fmt.Sprint(loadConnections / len(bases))
			var args []string
			if tool == "hey" {
				args = []string{"-n", fmt.Sprint(loadRequests / len(bases)), "-c", conns,
					"-z", "0", "-t", "10", "-m", "POST", "-T", "application/proto", "-D", bodyFile,
					"-H", "Authorization: Bearer " + secret, url}
			} else {
				args = []string{"-t", "1", "-c", conns, "-d", fmt.Sprint(loadSeconds) + "s", "-s", script, url}
			}
			hctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			out, err := exec.CommandContext(hctx, bin, args...).CombinedOutput()
			rate, problem := heyRate(string(out), loadRequests/len(bases))
			if tool == "wrk" {
				rate, problem = wrkRate(string(out))
			}
			if err != nil || problem != "" {
				b.Errorf("%s %s: %v %s\n%s", tool, strings.Join(args, " "), err, problem, out)
				return
			}
			mu.Lock()
			total += rate
			mu.Unlock()
		})
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(total, "fetches/s")
	b.ReportMetric(0, "ns/op")
}

var (
	heyRateRE   = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)
	heyStatusRE = regexp.MustCompile(`\[(\d+)\]\s+(\d+) responses`)
)

// heyRate reads hey's report: the requests per second, and a problem
// unless all n answers were 200.
func heyRate(out string, n int) (float64, string) {
	m := heyRateRE.FindStringSubmatch(out)
	if m == nil {
		return 0, "no Requests/sec in hey's report"
	}
	rate, _ := strconv.ParseFloat(m[1], 64)
	ok := 0
	for _, s := range heyStatusRE.FindAllStringSubmatch(out, -1) {
		if s[1] != "200" {
			return 0, "answers other than 200: " + s[0]
		}
		ok, _ = strconv.Atoi(s[2])
	}
	if ok != n {
		return 0, fmt.Sprintf("%d answers of 200, want %d", ok, n)
	}
	if strings.Contains(out, "Error distribution") {
		return 0, "hey saw errors"
	}
	return rate, ""
}

// wrkScript makes wrk send the request: POST, binary Protobuf, the token.
func wrkScript(body []byte, secret string) string {
	var lua strings.Builder
	for _, c := range body {
		fmt.Fprintf(&lua, "\\%03d", c)
	}
	return fmt.Sprintf("wrk.method = \"POST\"\nwrk.headers[\"Content-Type\"] = \"application/proto\"\n"+
		"wrk.headers[\"Authorization\"] = \"Bearer %s\"\nwrk.body = \"%s\"\n", secret, lua.String())
}

var wrkRateRE = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)

// wrkRate reads wrk's report: the requests per second, and a problem
// when an answer was not 2xx or a socket failed.
func wrkRate(out string) (float64, string) {
	m := wrkRateRE.FindStringSubmatch(out)
	if m == nil {
		return 0, "no Requests/sec in wrk's report"
	}
	if strings.Contains(out, "Non-2xx") || strings.Contains(out, "Socket errors") {
		return 0, "wrk saw failed answers"
	}
	rate, _ := strconv.ParseFloat(m[1], 64)
	return rate, ""
}
