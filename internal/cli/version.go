package cli

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// buildInfo is what `agenthooks version` reports: enough to tell which
// source a binary was built from when a user files a bug or an
// administrator checks a fleet.
type buildInfo struct {
	Version    string `json:"version"`
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commitTime,omitempty"`
	// Modified: the working tree had uncommitted changes at build time,
	// so Commit alone does not name the source.
	Modified  bool   `json:"modified"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// readBuildInfo gathers the version (see version) and the VCS stamp the
// Go toolchain records when it builds inside a repository.
func readBuildInfo() buildInfo {
	b := buildInfo{
		Version:   version(),
		GoVersion: runtime.Version(),
		Platform:  runtime.GOOS + "/" + runtime.GOARCH,
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if bi.GoVersion != "" {
		b.GoVersion = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Commit = s.Value
		case "vcs.time":
			b.CommitTime = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

type versionOptions struct {
	io      *IO
	asJSON  bool
	getInfo func() buildInfo
}

func newVersionCmd(s *IO) *cobra.Command {
	o := &versionOptions{io: s, getInfo: readBuildInfo}
	cmd := &cobra.Command{
		Use:   "version [--json]",
		Short: "Print the version and the commit this binary was built from",
		Long: `Version prints the release version (set at build time, else the module version
"go install" recorded, else "dev"), the VCS commit, its time and whether the tree
had uncommitted changes, the Go version and the platform. --json prints the same
as one JSON object, for scripts.`,
		Example: `  agenthooks version`,
		Args:    cobra.NoArgs,
		RunE:    func(*cobra.Command, []string) error { return o.run() },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print one JSON object")
	return cmd
}

func (o *versionOptions) run() error {
	b := o.getInfo()
	if o.asJSON {
		enc := json.NewEncoder(o.io.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(b); err != nil {
			return fmt.Errorf("version: %w", err)
		}
		return nil
	}
	if _, err := fmt.Fprintf(o.io.Out, "agenthooks %s\n", b.Version); err != nil {
		return fmt.Errorf("version: %w", err)
	}
	if b.Commit != "" {
		commit := b.Commit
		if b.Modified {
			commit += " (modified)"
		}
		fmt.Fprintf(o.io.Out, "commit:   %s\n", commit)
	}
	if b.CommitTime != "" {
		fmt.Fprintf(o.io.Out, "time:     %s\n", b.CommitTime)
	}
	_, err := fmt.Fprintf(o.io.Out, "go:       %s %s\n", b.GoVersion, b.Platform)
	if err != nil {
		return fmt.Errorf("version: %w", err)
	}
	return nil
}
