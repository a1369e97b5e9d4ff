package cli

import (
	"context"
	"fmt"
	"log/slog"
	"net"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/team/dashboard"
	"github.com/agenthooks/agenthooks/team/server"
	"github.com/agenthooks/agenthooks/team/store"
)

// envTeamDatabase names the variable that can hold --database, so that
// a PostgreSQL password need not appear in the process list.
const envTeamDatabase = "AGENTHOOKS_TEAM_DATABASE"

// maxScriptLimit bounds --max-script-bytes: every member machine
// downloads every script, and a request must fit in memory.
const maxScriptLimit = 64 << 20

type serveOptions struct {
	io             *IO
	listen         string
	database       string
	tlsCert        string
	tlsKey         string
	maxScriptBytes int
	verbose        bool
	noDashboard    bool
	uploadRate     float64
	uploadDaily    int64
	// ready, when set, is told the address once the server listens
	// (tests listen on port 0).
	ready func(addr string)
}

func newServeCmd(s *IO) *cobra.Command {
	o := &serveOptions{io: s}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run a team hooks server",
		Long: `Serve runs the team hooks server: members' machines fetch their team's hooks from it
(TeamHooksService, with a member token) and administrators manage teams, hooks and
tokens (AdminService, with an admin token). It speaks Connect, gRPC and gRPC-Web on one
port, over HTTP/1.1 and HTTP/2 (without TLS too), and serves /healthz, /metrics and, at /,
a web dashboard where an administrator manages the hooks with an admin token.

All state is in the database: an SQLite file (the default, in the state directory) for
one server, or PostgreSQL, which any number of servers can share. Create the first admin
token with "agenthooks serve token create --admin --name NAME"; it works on the database
directly, with or without a server running. Stop the server with Ctrl-C or SIGTERM: it
finishes the requests in flight first.`,
		Example: `  agenthooks serve`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
	}
	f := cmd.Flags()
	f.StringVar(&o.listen, "listen", "127.0.0.1:8650", "`ADDRESS` to listen on (host:port; :8650 for every interface)")
	f.StringVar(&o.tlsCert, "tls-cert", "", "serve HTTPS with this PEM certificate `FILE` (with --tls-key)")
	f.StringVar(&o.tlsKey, "tls-key", "", "the certificate's PEM private key `FILE`")
	f.IntVar(&o.maxScriptBytes, "max-script-bytes", store.DefaultMaxScriptBytes, "largest hook script accepted, in `BYTES`")
	f.BoolVarP(&o.verbose, "verbose", "v", false, "log every call, members' fetches included")
	f.BoolVar(&o.noDashboard, "no-dashboard", false, "serve the API only, without the web dashboard at /")
	f.Float64Var(&o.uploadRate, "upload-rate", server.DefaultUploadRate, "uploads of decisions a member token may send a second, per server (`RATE`)")
	f.Int64Var(&o.uploadDaily, "upload-daily-decisions", store.DefaultDailyDecisionsPerToken, "decisions a member token may upload in a day (UTC), across servers (`N`)")
	cmd.PersistentFlags().StringVar(&o.database, "database", "",
		"`URL` of the database: sqlite:PATH or postgres://USER@HOST/DB (default $"+envTeamDatabase+", else sqlite:STATE_DIR/team.db)")
	cmd.AddCommand(newServeTokenCmd(o), newServeTeamCmd(o))
	return cmd
}

func (o *serveOptions) run(ctx context.Context) error {
	if o.maxScriptBytes <= 0 || o.maxScriptBytes > maxScriptLimit {
		return usageErr("--max-script-bytes %d: give a number of bytes from 1 to %d", o.maxScriptBytes, maxScriptLimit)
	}
	if o.uploadRate < 0 || o.uploadDaily < 0 {
		return usageErr("--upload-rate and --upload-daily-decisions cannot be negative (0: the default)")
	}
	if (o.tlsCert == "") != (o.tlsKey == "") {
		return usageErr("--tls-cert and --tls-key go together: give both, or neither for plain HTTP")
	}
	level := slog.LevelInfo
	if o.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(o.io.Err, &slog.HandlerOptions{Level: level}))

	st, url, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	cfg := server.Config{
		Store:          st,
		MaxScriptBytes: o.maxScriptBytes,
		UploadRate:     o.uploadRate,
		Logger:         log,
		TLSCertFile:    o.tlsCert,
		TLSKeyFile:     o.tlsKey,
	}
	if !o.noDashboard {
		cfg.Root = dashboard.Handler()
	}
	srv, err := server.New(cfg)
	if err != nil {
		return err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", o.listen)
	if err != nil {
		return fmt.Errorf("listen on %s (change it with --listen): %w", o.listen, err)
	}
	scheme := "http"
	if o.tlsCert != "" {
		scheme = "https"
	}
	log.Info("serving team hooks", "url", scheme+"://"+ln.Addr().String(), "database", url)
	reportBreaches(ctx, log, st, o.maxScriptBytes)
	if o.ready != nil {
		o.ready(ln.Addr().String())
	}
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	log.Info("stopped")
	return nil
}

// reportBreaches logs each stored hook that breaks a rule the server
// applies to new hooks: members refuse the team's whole set because of
// it, and only an administrator can fix or remove it.
func reportBreaches(ctx context.Context, log *slog.Logger, st store.Store, maxScriptBytes int) {
	breaches, err := store.Breaches(ctx, st, maxScriptBytes)
	if err != nil {
		log.Warn("could not check the stored hooks against the rules", "err", err)
		return
	}
	for _, b := range breaches {
		log.Warn("stored hook breaks a rule; members refuse the team's hooks until it is fixed or removed (UpdateHook or DeleteHook, or the dashboard)",
			"team", b.TeamName, "hook", b.HookID, "script", b.ScriptName, "field", b.Field, "problem", b.Problem)
	}
}
