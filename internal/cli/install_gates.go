package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/agent/agents"
	"github.com/agenthooks/agenthooks/install"
	"github.com/agenthooks/agenthooks/internal/proc"
	"github.com/agenthooks/agenthooks/internal/shellquote"
)

// gates deals with the agent's own gates after an install: with --trust
// they are opened; without the flag, on a terminal, the user is asked;
// otherwise (or on a no) each shut gate is printed with the exact setting
// that opens it and the command that records it. A shut gate means the
// agent skips the hooks silently, so it is never left unsaid.
func (o *installOptions) gates(ctx context.Context, opts install.Options, gates []install.Gate) error {
	shut := shutGates(gates)
	if len(shut) == 0 {
		return nil
	}
	yes := o.trust
	if !o.trustSet && proc.IsTerminal(o.io.In) {
		ok, err := o.askTrust(ctx, shut)
		if err != nil {
			return err
		}
		yes = ok
	}
	if yes {
		after, err := agents.Install().Trust(opts)
		if err != nil {
			return err
		}
		for _, g := range shut {
			fmt.Fprintf(o.io.Out, "  trusted: %s (%s)\n", g.What, g.File)
		}
		shut = shutGates(after)
		if len(shut) == 0 {
			return nil
		}
	}
	fmt.Fprintf(o.io.Out, "  %s skips these hooks until:\n", agents.Install().Title(o.agent))
	byFile := map[string][]string{}
	var files []string
	for _, g := range shut {
		fmt.Fprintf(o.io.Out, "    - %s\n", g.What)
		if byFile[g.File] == nil {
			files = append(files, g.File)
		}
		byFile[g.File] = append(byFile[g.File], g.Setting)
	}
	fmt.Fprintf(o.io.Out, "  to record that: %s\n", o.trustCommand(opts))
	for _, f := range files {
		fmt.Fprintf(o.io.Out, "  or set in %s:\n", f)
		for _, s := range byFile[f] {
			for _, line := range strings.Split(s, "\n") {
				fmt.Fprintf(o.io.Out, "    %s\n", line)
			}
		}
	}
	var hints []string
	for _, g := range shut {
		if g.Command != "" && !slices.Contains(hints, g.Command) {
			hints = append(hints, g.Command)
		}
	}
	if len(hints) > 0 {
		fmt.Fprintf(o.io.Out, "  or in %s itself: %s\n", agents.Install().Title(o.agent), strings.Join(hints, "; then "))
	}
	return nil
}

func shutGates(gates []install.Gate) []install.Gate {
	var out []install.Gate
	for _, g := range gates {
		if !g.Open {
			out = append(out, g)
		}
	}
	return out
}

// askTrust asks on the controlling terminal.
func (o *installOptions) askTrust(ctx context.Context, shut []install.Gate) (bool, error) {
	t, err := proc.OpenTerminal()
	if err != nil {
		return false, nil // no controlling terminal after all: as if piped
	}
	defer t.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "%s skips these hooks until:\n", agents.Install().Title(o.agent))
	for _, g := range shut {
		fmt.Fprintf(&b, "  - %s\n", g.What)
	}
	fmt.Fprintf(&b, "Record that in %s? [y/N] ", shut[0].File)
	return t.Ask(ctx, b.String())
}

// trustCommand is this install again, with --trust.
func (o *installOptions) trustCommand(opts install.Options) string {
	argv := []string{"agenthooks", "install", "--agent", o.agent, "--scope", o.scope}
	if opts.Root != "" {
		argv = append(argv, "--workspace", opts.Root)
	}
	if o.binary != "" {
		argv = append(argv, "--binary", opts.Binary)
	}
	return shellquote.POSIXCommand(append(argv, "--trust"))
}
