package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/internal/settings"
)

type settingsOptions struct {
	io     *IO
	asJSON bool
}

// newSettingsCmd is `agenthooks settings`: every variable agenthooks
// reads, with its value here, what it changes and its default.
func newSettingsCmd(s *IO) *cobra.Command {
	o := &settingsOptions{io: s}
	cmd := &cobra.Command{
		Use:   "settings",
		Short: "List the environment variables agenthooks reads, with their values in effect",
		Long: `Settings lists every environment variable agenthooks reads (its own AGENTHOOKS_*,
and the XDG_*, HOME, PATH, GIT_* and model-key variables it consults), with the value
in this environment, what it changes and what applies when it is unset. Secrets
show as (set). "engine" marks the variables that separate resident engines: clients
whose values differ are served by different engines (agenthooks engine status --all).
The others are read from each step's own environment.`,
		Example: `  agenthooks settings`,
		Args:    cobra.NoArgs,
		RunE:    func(*cobra.Command, []string) error { return o.run() },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the settings as JSON")
	return cmd
}

func (o *settingsOptions) run() error {
	env := o.io.env
	if env == nil {
		env = os.Environ()
	}
	entries := settings.InEffect(env)
	if o.asJSON {
		type entry struct {
			Name      string `json:"name"`
			Value     string `json:"value,omitempty"`
			Set       bool   `json:"set"`
			Meaning   string `json:"meaning"`
			Default   string `json:"default"`
			Separates bool   `json:"separates_engines"`
		}
		out := make([]entry, len(entries))
		for i, e := range entries {
			out[i] = entry{e.Name, e.Value, e.Set, e.Meaning, e.Default, e.Separates}
		}
		enc := json.NewEncoder(o.io.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(o.io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVALUE\tENGINE\tMEANING; DEFAULT")
	for _, e := range entries {
		val := e.Value
		if !e.Set {
			val = "-"
		} else if r := []rune(val); len(r) > 48 {
			val = string(r[:47]) + "…" // the whole value is in --json
		}
		sep := ""
		if e.Separates {
			sep = "engine"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s; default: %s\n", e.Name, val, sep, e.Meaning, e.Default)
	}
	return tw.Flush()
}
