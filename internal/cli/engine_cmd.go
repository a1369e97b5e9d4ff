package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/internal/filelock"
	"github.com/agenthooks/agenthooks/internal/resident"
	"github.com/agenthooks/agenthooks/internal/wire"
	"github.com/agenthooks/agenthooks/team/teamsync"
)

// EnvEngineIdle is how long an idle engine waits before it exits.
const EnvEngineIdle = "AGENTHOOKS_ENGINE_IDLE"

type engineOptions struct {
	io     *IO
	socket string
	idle   time.Duration
	json   bool
	all    bool
}

// newEngineCmd is `agenthooks engine`: the user's resident engine.
func newEngineCmd(s *IO) *cobra.Command {
	o := &engineOptions{io: s}
	cmd := &cobra.Command{
		Use:   "engine status|stop|serve",
		Short: "The resident engine that answers agents' steps: its status; stop it",
		Long: `agenthooks keeps one engine per user (and per set of agenthooks settings) running
in the background: it holds the hooks, trust, sessions, the log and compiled
policies, so a step costs about what its hooks cost. The first step that finds no
engine starts one (and runs itself); the engine exits after ` + resident.DefaultIdle.String() + ` without a
request ($` + EnvEngineIdle + `), and makes way when agenthooks is reinstalled.
AGENTHOOKS_ENGINE=off runs every step in a process of its own. See ` + docsURL + `engine.md.

  engine status [--all] [--json]   is an engine running: version, uptime, socket, steps served
  engine stop [--all]              stop it (the next step starts another)
  (--all: every engine of the user's, whatever the settings it was started with)
  engine serve             run an engine in the foreground (what the first step starts)`,
		Example: `  agenthooks engine status --all`,
	}
	status := &cobra.Command{
		Use:   "status",
		Short: "Show whether the engine runs, its version, uptime, socket and steps served",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return o.control(cmd.Context(), resident.ControlStatus) },
	}
	status.Flags().BoolVar(&o.json, "json", false, "print the status as JSON")
	status.Flags().BoolVar(&o.all, "all", false, "every engine of the user's, whatever the AGENTHOOKS_* settings it was started with (one per set)")
	stop := &cobra.Command{
		Use:   "stop",
		Short: "Stop the engine after the steps it is running",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return o.control(cmd.Context(), resident.ControlStop) },
	}
	stop.Flags().BoolVar(&o.all, "all", false, "stop every engine of the user's, whatever the settings it was started with")
	serve := &cobra.Command{
		Use:   "serve",
		Short: "Run an engine in the foreground",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return o.serve(cmd.Context()) },
	}
	serve.Flags().StringVar(&o.socket, "socket", "", "the socket's path (default: the one clients with this environment use)")
	serve.Flags().DurationVar(&o.idle, "idle", 0, "exit after this long without a request (default $"+EnvEngineIdle+", else "+resident.DefaultIdle.String()+")")
	cmd.AddCommand(status, stop, serve)
	return cmd
}

// defaultSocket is the socket clients with this process's environment use.
func defaultSocket() (string, error) {
	if !wire.Supported {
		return "", errors.New("the resident engine is not available on this system: every step runs in a process of its own")
	}
	dir, err := wire.Dir(os.Getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, wire.SocketName(os.Environ())), nil
}

// selfIdentity is this binary's identity, as clients compute it.
func selfIdentity() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("this binary: %w", err)
	}
	return wire.Identity(exe)
}

// control asks the engine of this environment, or with --all every
// engine of the user's, for its status, or to stop, and prints it.
func (o *engineOptions) control(ctx context.Context, control string) error {
	sock, err := defaultSocket()
	if err != nil {
		return err
	}
	if !o.all {
		return o.status(ctx, o.io.Out, sock, control)
	}
	socks, err := allSockets(filepath.Dir(sock))
	if err != nil {
		return err
	}
	if o.json {
		// One JSON document: an array of what status --json prints.
		docs := []json.RawMessage{}
		for _, s := range socks {
			var b strings.Builder
			_ = o.status(ctx, &b, s, control)
			docs = append(docs, json.RawMessage(strings.TrimSpace(b.String())))
		}
		return json.NewEncoder(o.io.Out).Encode(docs)
	}
	if len(socks) == 0 {
		fmt.Fprintf(o.io.Out, "no engine is running (none in %s)\n", filepath.Dir(sock))
		return nil
	}
	for i, s := range socks {
		if i > 0 {
			fmt.Fprintln(o.io.Out)
		}
		_ = o.status(ctx, o.io.Out, s, control)
	}
	return nil
}

// allSockets are the sockets of every engine in dir that may be running:
// each one that serves, or is on its way, holds a lock file beside it.
func allSockets(dir string) ([]string, error) {
	locks, err := filepath.Glob(filepath.Join(dir, "engine-v*.lock"))
	if err != nil {
		return nil, fmt.Errorf("engines in %s: %w", dir, err)
	}
	var socks []string
	for _, l := range locks {
		s := strings.TrimSuffix(l, ".lock")
		if resident.Listening(s) || filelock.Held(l) {
			socks = append(socks, s)
		}
	}
	return socks, nil
}

// status asks the engine at sock for its status, or to stop, and prints it
// to out.
func (o *engineOptions) status(ctx context.Context, out io.Writer, sock, control string) error {
	var before *wire.Status
	if control == resident.ControlStop {
		before, _ = resident.Control(ctx, sock, resident.ControlStatus)
	}
	st, err := resident.Control(ctx, sock, control)
	if err != nil && before != nil && gone(sock) {
		// The engine took the request and went before its answer came.
		st, err = before, nil
	}
	if err != nil {
		// No answer, yet an engine may hold the lock: one on its way in
		// or out, or one stuck, which keeps clients from starting another.
		locked := filelock.Held(wire.LockFile(sock))
		if o.json {
			return json.NewEncoder(out).Encode(map[string]any{"running": false, "locked": locked, "socket": sock, "error": err.Error()})
		}
		if locked {
			fmt.Fprintf(out, "no engine answers (socket %s), but a process holds its lock %s:\n"+
				"  an engine starting or stopping, or one that is stuck; meanwhile every step runs in a process of its own\n", sock, wire.LockFile(sock))
		} else {
			fmt.Fprintf(out, "no engine is running (socket %s)\n", sock)
		}
		if !errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(o.io.Err, "agenthooks: %v\n", err)
		}
		if control == resident.ControlStatus {
			return silentExit(ExitProblems)
		}
		return nil
	}
	if o.json {
		return json.NewEncoder(out).Encode(map[string]any{"running": true, "engine": st})
	}
	started, _ := time.Parse(time.RFC3339, st.Started)
	if control == resident.ControlStop {
		fmt.Fprintf(out, "engine %d stops after its running steps (%d served)\n", st.PID, st.Steps)
		return nil
	}
	self, _ := selfIdentity()
	current := "current"
	if st.Build != self {
		current = "started from another agenthooks binary: the next step replaces it"
	}
	fmt.Fprintf(out, "engine running\n  pid      %d\n  version  %s (%s)\n  socket   %s\n  uptime   %s\n  steps    %d served, %d running\n  idle     exits after %s without a request\n",
		st.PID, st.Version, current, st.Socket, time.Since(started).Round(time.Second), st.Steps, st.Active, st.IdleExit)
	if st.Waiting != "" {
		fmt.Fprintf(out, "  waiting  %s\n           (meanwhile every step runs in a process of its own)\n", st.Waiting)
	}
	return nil
}

// serve runs an engine until it is idle, stopped or replaced.
func (o *engineOptions) serve(ctx context.Context) error {
	sock := o.socket
	if sock == "" {
		s, err := defaultSocket()
		if err != nil {
			return err
		}
		sock = s
	}
	idle := o.idle
	if idle <= 0 {
		if v := os.Getenv(EnvEngineIdle); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return usageErr("%s=%q: give a duration such as 15m", EnvEngineIdle, v)
			}
			idle = d
		}
	}
	build, err := selfIdentity()
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(o.io.Err, nil))
	srv := &resident.Server{
		Socket: sock, Build: build, Version: version(), Idle: idle, Serves: servesCall,
		Logf: func(format string, a ...any) { logger.Info(fmt.Sprintf(format, a...)) },
	}
	// The root's context ends on the interrupt signals; the team sync
	// ends with the server.
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	synced := make(chan struct{})
	go func() {
		defer close(synced)
		keepTeamCurrent(ctx, logger)
	}()
	e := &resident.Engine{Handle: handleServed, Logger: logger}
	err = e.Serve(ctx, srv)
	stop()
	<-synced
	return err
}

// keepTeamCurrent syncs the team's hooks every teamsync.DefaultInterval
// while the engine runs, when a team server is configured, as Cursor
// refreshes its team hooks. A set that needs the user's acceptance is
// left for `agenthooks sync`; the last good set stays meanwhile.
func keepTeamCurrent(ctx context.Context, logger *slog.Logger) {
	server, token := os.Getenv(teamsync.ServerEnv), os.Getenv(teamsync.TokenEnv)
	if server == "" {
		return
	}
	home, err := os.UserHomeDir()
	if err != nil {
		logger.Warn("team sync: no home folder", "err", err)
		return
	}
	reporting := openTeamReporting(ctx, home, io.Discard)
	defer reporting.Close()
	client, err := teamsync.New(reporting.options(teamsync.Options{Server: server, Token: token, Home: home}))
	if err != nil {
		logger.Warn("team sync", "err", err)
		return
	}
	decline := func(context.Context, *teamsync.Plan) (bool, error) { return false, nil }
	_ = client.Watch(ctx, teamsync.DefaultInterval, decline, func(r teamsync.Round) {
		if r.Err != nil {
			logger.Warn("team sync: the last good set stays", "err", r.Err)
			return
		}
		logger.Info("team sync: " + describe(r.Result))
	})
}

// gone reports whether the engine at sock stops listening within a couple
// of seconds, as a stopped engine does on its way out.
func gone(sock string) bool {
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if !resident.Listening(sock) {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
