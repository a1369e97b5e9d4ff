package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/host"
)

// openHost assembles agenthooks the way every verb that runs hooks does
// (package host): warnings are collected for the verb to print. In the
// resident engine it is the engine's host.
func (s *IO) openHost(ctx context.Context) *host.Host {
	if s.host != nil {
		return s.host
	}
	return host.Open(ctx, host.Options{})
}

// openEngine loads the engine of a host for verbs that work with the
// engine itself (list, test, validate, exec). Other agents' settings files
// are among the sources, less the files skip names. Host warnings go to
// stderr at once; the returned function writes the log and closes the
// state store.
func openEngine(ctx context.Context, roots []string, skip config.Skip) (*engine.Engine, func() error, error) {
	_, eng, closeHost, err := openHostEngine(ctx, roots, skip)
	return eng, closeHost, err
}

// openHostEngine is openEngine with the host, for verbs that read more
// than the hooks (exec reads the sandbox through it).
func openHostEngine(ctx context.Context, roots []string, skip config.Skip) (*host.Host, *engine.Engine, func() error, error) {
	h := host.Open(ctx, host.Options{Warn: func(msg string) { fmt.Fprintln(os.Stderr, "agenthooks: warning:", msg) }})
	eng, err := h.Engine(roots, skip)
	if err != nil {
		_ = h.Close(ctx)
		return nil, nil, nil, err
	}
	return h, eng, func() error { return h.Close(context.WithoutCancel(ctx)) }, nil
}

// printEngineProblems reports the engine's source problems on w, one line each.
func printEngineProblems(w io.Writer, eng *engine.Engine) {
	for _, p := range eng.Problems() {
		fmt.Fprintln(w, "agenthooks:", p.Error())
	}
}
