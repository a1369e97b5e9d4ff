package cli

import (
	"context"
	"fmt"
	"strconv"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/team/store"
)

// newServeTokenCmd is `agenthooks serve token`: create, list and revoke
// access tokens on the database directly (see serve_admin.go).
func newServeTokenCmd(o *serveOptions) *cobra.Command {
	return serveGroupCmd("token", "Create, list and revoke the server's access tokens",
		newTokenCreateCmd(o), newTokenListCmd(o), newTokenRevokeCmd(o))
}

type tokenCreateOptions struct {
	serve *serveOptions
	name  string
	admin bool
	team  string
}

func newTokenCreateCmd(serve *serveOptions) *cobra.Command {
	o := &tokenCreateOptions{serve: serve}
	cmd := &cobra.Command{
		Use:   "create --name NAME (--admin | --team TEAM)",
		Short: "Create a token and print its secret",
		Long: `Create makes an access token and prints its secret on stdout, once: the database keeps only
its SHA-256. An admin token (--admin) administers every team through AdminService; a
member token (--team, by id or name) reads that team's hooks through TeamHooksService.
The name identifies the token in lists and in the history of changes; it cannot be reused.`,
		Example: `  agenthooks serve token create --admin --name alice
  TOKEN=$(agenthooks serve token create --team platform --name laptops)`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
	}
	cmd.Flags().StringVar(&o.name, "name", "", "the token's `NAME`")
	cmd.Flags().BoolVar(&o.admin, "admin", false, "an admin token")
	cmd.Flags().StringVar(&o.team, "team", "", "a member token of `TEAM` (id or name)")
	return cmd
}

func (o *tokenCreateOptions) run(ctx context.Context) error {
	if o.admin == (o.team != "") {
		return usageErr("give --admin for an admin token, or --team TEAM for a member token of that team")
	}
	if o.name == "" {
		return usageErr("give the token a --name (it shows in the history of changes)")
	}
	return o.serve.withStore(ctx, func(ctx context.Context, st store.Store) error {
		role, teamID := store.RoleAdmin, int64(0)
		if o.team != "" {
			t, err := findTeam(ctx, st, o.team)
			if err != nil {
				return err
			}
			role, teamID = store.RoleMember, t.ID
		}
		tok, secret, err := st.CreateToken(ctx, o.name, role, teamID)
		if err != nil {
			return err
		}
		fmt.Fprintln(o.serve.io.Out, secret)
		fmt.Fprintf(o.serve.io.Err, "created %s token %q (id %d); its secret is printed once, keep it\n", tok.Role, tok.Name, tok.ID)
		return nil
	})
}

type tokenListOptions struct {
	serve *serveOptions
	team  string
}

func newTokenListCmd(serve *serveOptions) *cobra.Command {
	o := &tokenListOptions{serve: serve}
	cmd := &cobra.Command{
		Use:   "list [--team TEAM]",
		Short: "List the live tokens",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return o.run(cmd.Context()) },
	}
	cmd.Flags().StringVar(&o.team, "team", "", "only the tokens of `TEAM` (id or name)")
	return cmd
}

func (o *tokenListOptions) run(ctx context.Context) error {
	return o.serve.withStore(ctx, func(ctx context.Context, st store.Store) error {
		var teamID int64
		if o.team != "" {
			t, err := findTeam(ctx, st, o.team)
			if err != nil {
				return err
			}
			teamID = t.ID
		}
		tokens, err := st.ListTokens(ctx, teamID)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(o.serve.io.Out, 0, 4, 2, ' ', 0)
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
}

type tokenRevokeOptions struct {
	serve *serveOptions
	id    string
}

func newTokenRevokeCmd(serve *serveOptions) *cobra.Command {
	o := &tokenRevokeOptions{serve: serve}
	return &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a token at once",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("revoke takes one token ID (see: agenthooks serve token list)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.id = args[0]
			return o.run(cmd.Context())
		},
	}
}

func (o *tokenRevokeOptions) run(ctx context.Context) error {
	id, err := strconv.ParseInt(o.id, 10, 64)
	if err != nil || id <= 0 {
		return usageErr("token ID %q: give the number agenthooks serve token list shows", o.id)
	}
	return o.serve.withStore(ctx, func(ctx context.Context, st store.Store) error {
		if err := st.RevokeToken(ctx, id); err != nil {
			return err
		}
		fmt.Fprintf(o.serve.io.Err, "revoked token %d\n", id)
		return nil
	})
}
