package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"

	"github.com/agenthooks/agenthooks/internal/wire"
)

// Exit statuses of the trampoline itself, as sh and exec use them.
const (
	exitCannotRun = 126
	exitNotFound  = 127
)

// Option adjusts the trampoline; only tests use one.
type Option func(*options)

type options struct {
	resolve Resolver
}

// WithResolver makes the proxy resolve names with r: tests map their
// host names to local servers.
func WithResolver(r Resolver) Option { return func(o *options) { o.resolve = r } }

// Main runs the trampoline verb: args are POLICY -- ARGV… (or --enter
// JOB -- ARGV… for the process that enters the sandbox). It returns only
// when the command could not be entered or has ended; its status is the
// command's.
//
// When the policy keeps the network open, this process enters the sandbox
// and becomes the command (one exec). Otherwise it stays outside, open,
// serving the allow-list proxy, and starts itself again to enter the
// sandbox with the proxy's port; it ends when the command does, and the
// proxy with it.
func Main(args []string, opts ...Option) int {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	enter := len(args) > 0 && args[0] == "--enter"
	if enter {
		args = args[1:]
	}
	if len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(os.Stderr, "agenthooks sandbox: usage: agenthooks-engine "+Verb+" POLICY -- COMMAND [ARG]...")
		return exitCannotRun
	}
	var j job
	if err := json.Unmarshal([]byte(args[0]), &j); err != nil {
		fmt.Fprintln(os.Stderr, "agenthooks sandbox: read the policy, so the command did not run:", err)
		return exitCannotRun
	}
	argv := args[2:]
	if enter || j.Policy.Network.Open() {
		return enterAndExec(j, argv)
	}
	return supervise(j, argv, o)
}

// enterAndExec enters the sandbox and replaces this process with the
// command; it returns only on failure, which never runs the command.
func enterAndExec(j job, argv []string) int {
	path, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "agenthooks sandbox: %s: command not found\n", argv[0])
		return exitNotFound
	}
	err = enter(j, path, argv, childEnv(j))
	fmt.Fprintln(os.Stderr, "agenthooks sandbox: the sandbox could not be entered, so the command did not run:", err)
	if errors.Is(err, os.ErrNotExist) {
		return exitNotFound
	}
	return exitCannotRun
}

// childEnv is the command's environment: ours without agenthooks' own
// secrets (wire.SecretNames: inside, the command cannot read them from
// any process outside, so it must not be handed them), with the proxy in
// every variable tools read it from, and the variables that say it is
// sandboxed.
func childEnv(j job) []string {
	envv, _ := wire.SplitSecrets(os.Environ())
	set := func(k, v string) {
		for i, kv := range envv {
			if len(kv) > len(k) && kv[:len(k)+1] == k+"=" {
				envv[i] = k + "=" + v
				return
			}
		}
		envv = append(envv, k+"="+v)
	}
	if j.ProxyPort > 0 {
		u := "http://127.0.0.1:" + strconv.Itoa(j.ProxyPort)
		for _, k := range []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"} {
			set(k, u)
		}
		// Nothing bypasses the proxy: a direct connection is refused.
		set("NO_PROXY", "")
		set("no_proxy", "")
	}
	set("CURSOR_SANDBOX", sandboxName)
	set("AGENTHOOKS_SANDBOX", "1")
	return envv
}

// supervise runs the proxy and the command, inside the sandbox, as a child
// of this process; it waits for the command and ends as it ended.
func supervise(j job, argv []string, o options) int {
	// The child dies with this thread (Pdeathsig): keep it.
	runtime.LockOSThread()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, err := startProxy(ctx, j.Policy.Network, o.resolve, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agenthooks sandbox:", err, "- the command did not run")
		return exitCannotRun
	}
	defer p.stop()
	j.ProxyPort = p.port()
	b, err := json.Marshal(j)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agenthooks sandbox: encode the policy, so the command did not run:", err)
		return exitCannotRun
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "agenthooks sandbox: find this program, so the command did not run:", err)
		return exitCannotRun
	}
	// Caught before the child starts, so none is missed: SIGINT and
	// SIGQUIT reach the child from the terminal or its process group as
	// they reach us; SIGTERM and SIGHUP are passed on.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, forwarded...)
	defer signal.Stop(sigs)
	cmd := exec.Command(self, append([]string{Verb, "--enter", string(b), "--"}, argv...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "agenthooks sandbox: start the command:", err)
		return exitCannotRun
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				passOn(cmd.Process, s)
			case <-done:
				return
			}
		}
	}()
	werr := cmd.Wait()
	close(done)
	cancel()
	p.stop()
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) {
		fmt.Fprintln(os.Stderr, "agenthooks sandbox: wait for the command:", werr)
		return exitCannotRun
	}
	return endLike(cmd.ProcessState)
}
