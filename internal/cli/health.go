package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/spf13/cobra"
)

// defaultHealthURL is serve's /healthz at its default --listen address.
const defaultHealthURL = "http://127.0.0.1:8650/healthz"

type healthOptions struct {
	io      *IO
	timeout time.Duration
}

// newHealthCmd is a probe for a team server: container images without a
// shell or curl (distroless, scratch) run it as their HEALTHCHECK.
func newHealthCmd(s *IO) *cobra.Command {
	o := &healthOptions{io: s}
	cmd := &cobra.Command{
		Use:   "health [URL]",
		Short: "Probe a team server's /healthz: exit 0 when it answers 200",
		Long: `Health fetches URL (default ` + defaultHealthURL + `, serve's health endpoint at
its default address) and exits 0 when the server answers 200 OK, 1 otherwise, saying
why on stderr. It is the HEALTHCHECK of the container image, which has no shell.`,
		Example: `  agenthooks health`,
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			url := defaultHealthURL
			if len(args) == 1 {
				url = args[0]
			}
			return o.run(cmd.Context(), url)
		},
	}
	cmd.Flags().DurationVar(&o.timeout, "timeout", 5*time.Second, "give up after `DURATION`")
	return cmd
}

func (o *healthOptions) run(ctx context.Context, url string) error {
	if o.timeout <= 0 {
		return usageErr("--timeout %s: give a positive duration", o.timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return usageErr("health: %v", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s answered %s: %s", url, resp.Status, body)
	}
	_, err = fmt.Fprintf(o.io.Out, "%s: %s", url, body)
	return err
}
