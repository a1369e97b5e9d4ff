package cli

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/team/store"
)

// newServeTeamCmd is `agenthooks serve team`: create and list teams on
// the database directly (see serve_admin.go).
func newServeTeamCmd(o *serveOptions) *cobra.Command {
	return serveGroupCmd("team", "Create and list teams", newTeamCreateCmd(o), newTeamListCmd(o))
}

type teamCreateOptions struct {
	serve *serveOptions
	name  string
}

func newTeamCreateCmd(serve *serveOptions) *cobra.Command {
	o := &teamCreateOptions{serve: serve}
	return &cobra.Command{
		Use:     "create NAME",
		Short:   "Create a team and print its id",
		Example: `  agenthooks serve team create platform`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("team create takes one NAME")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.name = args[0]
			return o.run(cmd.Context())
		},
	}
}

func (o *teamCreateOptions) run(ctx context.Context) error {
	return o.serve.withStore(ctx, func(ctx context.Context, st store.Store) error {
		t, err := st.CreateTeam(ctx, o.name)
		if err != nil {
			return err
		}
		fmt.Fprintln(o.serve.io.Out, t.ID)
		fmt.Fprintf(o.serve.io.Err, "created team %q (id %d)\n", t.Name, t.ID)
		return nil
	})
}

type teamListOptions struct{ serve *serveOptions }

func newTeamListCmd(serve *serveOptions) *cobra.Command {
	o := &teamListOptions{serve: serve}
	return &cobra.Command{
		Use:   "list",
		Short: "List the teams",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
	}
}

func (o *teamListOptions) run(ctx context.Context) error {
	return o.serve.withStore(ctx, func(ctx context.Context, st store.Store) error {
		teams, err := st.ListTeams(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(o.serve.io.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tNAME\tREVISION\tCREATED")
		for _, t := range teams {
			fmt.Fprintf(w, "%d\t%s\t%d\t%s\n", t.ID, t.Name, t.Revision, msTime(t.CreatedAtMs))
		}
		return w.Flush()
	})
}
