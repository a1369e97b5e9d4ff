package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/team/store"
)

// The bootstrap commands work on the database directly, so the first
// admin token can be made before any server runs, and a lost one can be
// replaced by whoever holds the database.

func newServeTokenCmd(o *serveOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Create, list and revoke the server's access tokens",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	var name, team string
	var admin bool
	create := &cobra.Command{
		Use:   "create --name NAME (--admin | --team TEAM)",
		Short: "Create a token and print its secret",
		Long: `Create makes an access token and prints its secret on stdout, once: the database keeps only
its SHA-256. An admin token (--admin) administers every team through AdminService; a
member token (--team, by id or name) reads that team's hooks through TeamHooksService.
The name identifies the token in lists and in the history of changes; it cannot be reused.`,
		Example: `  agenthooks serve token create --admin --name alice
  TOKEN=$(agenthooks serve token create --team platform --name laptops)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if admin == (team != "") {
				return usageErr("give --admin for an admin token, or --team TEAM for a member token of that team")
			}
			if name == "" {
				return usageErr("give the token a --name (it shows in the history of changes)")
			}
			return o.withStore(cmd.Context(), func(ctx context.Context, st store.Store) error {
				role, teamID := store.RoleAdmin, int64(0)
				if team != "" {
					t, err := findTeam(ctx, st, team)
					if err != nil {
						return err
					}
					role, teamID = store.RoleMember, t.ID
				}
				tok, secret, err := st.CreateToken(ctx, name, role, teamID)
				if err != nil {
					return err
				}
				fmt.Fprintln(o.io.Out, secret)
				fmt.Fprintf(o.io.Err, "created %s token %q (id %d); its secret is printed once, keep it\n", tok.Role, tok.Name, tok.ID)
				return nil
			})
		},
	}
	create.Flags().StringVar(&name, "name", "", "the token's `NAME`")
	create.Flags().BoolVar(&admin, "admin", false, "an admin token")
	create.Flags().StringVar(&team, "team", "", "a member token of `TEAM` (id or name)")

	var listTeam string
	list := &cobra.Command{
		Use:   "list [--team TEAM]",
		Short: "List the live tokens",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.withStore(cmd.Context(), func(ctx context.Context, st store.Store) error {
				var teamID int64
				if listTeam != "" {
					t, err := findTeam(ctx, st, listTeam)
					if err != nil {
						return err
					}
					teamID = t.ID
				}
				tokens, err := st.ListTokens(ctx, teamID)
				if err != nil {
					return err
				}
				w := tabwriter.NewWriter(o.io.Out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "ID\tNAME\tROLE\tTEAM\tCREATED")
				for _, t := range tokens {
					team := "-"
					if t.TeamID != 0 {
						team = strconv.FormatInt(t.TeamID, 10)
					}
					fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", t.ID, t.Name, t.Role, team, msTime(t.CreatedAtMs))
				}
				return w.Flush()
			})
		},
	}
	list.Flags().StringVar(&listTeam, "team", "", "only the tokens of `TEAM` (id or name)")

	revoke := &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a token at once",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("revoke takes one token ID (see: agenthooks serve token list)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return usageErr("token ID %q: give the number agenthooks serve token list shows", args[0])
			}
			return o.withStore(cmd.Context(), func(ctx context.Context, st store.Store) error {
				if err := st.RevokeToken(ctx, id); err != nil {
					return err
				}
				fmt.Fprintf(o.io.Err, "revoked token %d\n", id)
				return nil
			})
		},
	}
	cmd.AddCommand(create, list, revoke)
	return cmd
}

func newServeTeamCmd(o *serveOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "team",
		Short: "Create and list teams",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	create := &cobra.Command{
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
			return o.withStore(cmd.Context(), func(ctx context.Context, st store.Store) error {
				t, err := st.CreateTeam(ctx, args[0])
				if err != nil {
					return err
				}
				fmt.Fprintln(o.io.Out, t.ID)
				fmt.Fprintf(o.io.Err, "created team %q (id %d)\n", t.Name, t.ID)
				return nil
			})
		},
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "List the teams",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.withStore(cmd.Context(), func(ctx context.Context, st store.Store) error {
				teams, err := st.ListTeams(ctx)
				if err != nil {
					return err
				}
				w := tabwriter.NewWriter(o.io.Out, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "ID\tNAME\tREVISION\tCREATED")
				for _, t := range teams {
					fmt.Fprintf(w, "%d\t%s\t%d\t%s\n", t.ID, t.Name, t.Revision, msTime(t.CreatedAtMs))
				}
				return w.Flush()
			})
		},
	}
	cmd.AddCommand(create, list)
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
