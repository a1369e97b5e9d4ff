package cli

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/team/store"
)

// The bootstrap commands (serve token, serve team) work on the database
// directly, so the first admin token can be made before any server runs,
// and a lost one can be replaced by whoever holds the database. This file
// holds what they share.

// serveGroupCmd is a bootstrap command that only groups its subcommands:
// alone, it prints its help.
func serveGroupCmd(use, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(subs...)
	return cmd
}

// withStore runs fn on the database of --database, closing it after;
// refused input becomes a usage error.
func (o *serveOptions) withStore(ctx context.Context, fn func(context.Context, store.Store) error) error {
	st, _, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	err = fn(ctx, st)
	var ve *store.ValidationError
	if errors.As(err, &ve) {
		return usageErr("%v", err)
	}
	return err
}

// findTeam accepts a team's id or its name.
func findTeam(ctx context.Context, st store.Store, team string) (store.Team, error) {
	if id, err := strconv.ParseInt(team, 10, 64); err == nil {
		return st.Team(ctx, id)
	}
	return st.TeamByName(ctx, team)
}

func msTime(ms int64) string {
	return time.UnixMilli(ms).UTC().Format(time.RFC3339)
}
