package cli

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/internal/printable"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// teamRun is the body of a `team` verb: it gets the admin client.
func (o *teamOptions) run(fn func(cmd *cobra.Command, c adminClient, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		c, err := o.client()
		if err != nil {
			return err
		}
		return fn(cmd, c, args)
	}
}

func newAPIListCmd(o *teamOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the server's teams",
		Args:  cobra.NoArgs,
		RunE: o.run(func(cmd *cobra.Command, c adminClient, _ []string) error {
			res, err := call(cmd.Context(), c.ListTeams, &teamv1.ListTeamsRequest{})
			if err != nil {
				return err
			}
			if o.json {
				return o.printJSON(o.io.Out, res)
			}
			w := tabwriter.NewWriter(o.io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tNAME\tREVISION\tAUDIT\tCREATED")
			for _, t := range res.GetTeams() {
				audit := "off"
				if t.GetAudit() {
					audit = fmt.Sprintf("on (%d days)", retention(t.GetAuditRetentionDays()))
				}
				fmt.Fprintf(w, "%d\t%s\t%d\t%s\t%s\n", t.GetId(), printable.Line(t.GetName()), t.GetRevision(), audit, msTime(t.GetCreatedAtUnixMs()))
			}
			return w.Flush()
		}),
	}
}

// retention is the retention a team's audit keeps (0: the server's default).
func retention(days int32) int32 {
	if days == 0 {
		return 90
	}
	return days
}

func newAPICreateCmd(o *teamOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "create NAME",
		Short: "Create a team",
		Args:  cobra.ExactArgs(1),
		RunE: o.run(func(cmd *cobra.Command, c adminClient, args []string) error {
			res, err := call(cmd.Context(), c.CreateTeam, &teamv1.CreateTeamRequest{Name: args[0]})
			if err != nil {
				return err
			}
			if o.json {
				return o.printJSON(o.io.Out, res)
			}
			fmt.Fprintf(o.io.Out, "created team %q, id %d\n", res.GetTeam().GetName(), res.GetTeam().GetId())
			return nil
		}),
	}
}

func newAPIHooksCmd(o *teamOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "hooks TEAM",
		Short: "List a team's hooks (and the rules stored ones break)",
		Args:  cobra.ExactArgs(1),
		RunE: o.run(func(cmd *cobra.Command, c adminClient, args []string) error {
			id, err := o.teamID(cmd.Context(), c, args[0])
			if err != nil {
				return err
			}
			res, err := call(cmd.Context(), c.ListHooks, &teamv1.ListHooksRequest{TeamId: id})
			if err != nil {
				return err
			}
			if o.json {
				return o.printJSON(o.io.Out, res)
			}
			fmt.Fprintf(o.io.Out, "revision %d, %d hooks\n", res.GetRevision(), len(res.GetHooks()))
			w := tabwriter.NewWriter(o.io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tSTEP\tSCRIPT\tMATCHER\tACTIVE\tSYSTEMS\tUPDATED BY")
			for _, h := range res.GetHooks() {
				systems := strings.Join(h.GetOperatingSystems(), ",")
				if systems == "" {
					systems = "all"
				}
				fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%t\t%s\t%s\n", h.GetId(), printable.Line(h.GetHookStep()), printable.Line(h.GetScriptName()),
					printable.Line(h.GetMatcher()), h.GetIsActive(), printable.Line(systems), printable.Line(h.GetUpdatedBy()))
			}
			if err := w.Flush(); err != nil {
				return err
			}
			for _, p := range res.GetProblems() {
				fmt.Fprintf(o.io.Out, "problem: hook %d, %s: %s\n", p.GetHookId(), printable.Line(p.GetField()), printable.Line(p.GetProblem()))
			}
			return nil
		}),
	}
}

func newAPITokenCmd(o *teamOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Create, list and revoke access tokens",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	var name, teamArg string
	var admin bool
	create := &cobra.Command{
		Use:   "create --name NAME (--team TEAM | --admin)",
		Short: "Make a member token of a team, or an admin token; its secret is printed once",
		Args:  cobra.NoArgs,
		RunE: o.run(func(cmd *cobra.Command, c adminClient, _ []string) error {
			if admin == (teamArg != "") {
				return usageErr("give --team TEAM for a member token, or --admin for an admin token")
			}
			req := &teamv1.CreateTokenRequest{Name: name, Role: "admin"}
			if !admin {
				id, err := o.teamID(cmd.Context(), c, teamArg)
				if err != nil {
					return err
				}
				req.Role, req.TeamId = "member", id
			}
			res, err := call(cmd.Context(), c.CreateToken, req)
			if err != nil {
				return err
			}
			if o.json {
				return o.printJSON(o.io.Out, res)
			}
			fmt.Fprintln(o.io.Out, res.GetSecret())
			fmt.Fprintf(o.io.Err, "token %q (id %d, %s): the secret above is shown once; the server keeps only its hash\n",
				res.GetToken().GetName(), res.GetToken().GetId(), res.GetToken().GetRole())
			return nil
		}),
	}
	create.Flags().StringVar(&name, "name", "", "the token's name, which the history shows (required)")
	create.Flags().StringVar(&teamArg, "team", "", "make a member token of this team")
	create.Flags().BoolVar(&admin, "admin", false, "make an admin token")
	_ = create.MarkFlagRequired("name")

	var listTeam string
	list := &cobra.Command{
		Use:   "list [--team TEAM]",
		Short: "List the live tokens",
		Args:  cobra.NoArgs,
		RunE: o.run(func(cmd *cobra.Command, c adminClient, _ []string) error {
			req := &teamv1.ListTokensRequest{}
			if listTeam != "" {
				id, err := o.teamID(cmd.Context(), c, listTeam)
				if err != nil {
					return err
				}
				req.TeamId = id
			}
			res, err := call(cmd.Context(), c.ListTokens, req)
			if err != nil {
				return err
			}
			if o.json {
				return o.printJSON(o.io.Out, res)
			}
			w := tabwriter.NewWriter(o.io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tNAME\tROLE\tTEAM\tCREATED")
			for _, t := range res.GetTokens() {
				team := "-"
				if t.GetTeamId() != 0 {
					team = strconv.FormatInt(t.GetTeamId(), 10)
				}
				fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\n", t.GetId(), printable.Line(t.GetName()), t.GetRole(), team, msTime(t.GetCreatedAtUnixMs()))
			}
			return w.Flush()
		}),
	}
	list.Flags().StringVar(&listTeam, "team", "", "only this team's member tokens")

	revoke := &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke a token: refused at once by every replica",
		Args:  cobra.ExactArgs(1),
		RunE: o.run(func(cmd *cobra.Command, c adminClient, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return usageErr("the token's id is a number (agenthooks team token list shows them), got %q", args[0])
			}
			res, err := call(cmd.Context(), c.RevokeToken, &teamv1.RevokeTokenRequest{Id: id})
			if err != nil {
				return err
			}
			if o.json {
				return o.printJSON(o.io.Out, res)
			}
			fmt.Fprintf(o.io.Out, "revoked token %d\n", id)
			return nil
		}),
	}
	cmd.AddCommand(create, list, revoke)
	return cmd
}

func newAPIAuditCmd(o *teamOptions) *cobra.Command {
	var days int32
	cmd := &cobra.Command{
		Use:   "audit on|off TEAM",
		Short: "Turn a team's audit (members upload their hooks' denials) on or off",
		Args:  cobra.ExactArgs(2),
		RunE: o.run(func(cmd *cobra.Command, c adminClient, args []string) error {
			var on bool
			switch args[0] {
			case "on":
				on = true
			case "off":
			default:
				return usageErr("audit takes on or off, got %q", args[0])
			}
			id, err := o.teamID(cmd.Context(), c, args[1])
			if err != nil {
				return err
			}
			res, err := call(cmd.Context(), c.SetTeamAudit, &teamv1.SetTeamAuditRequest{TeamId: id, Audit: on, AuditRetentionDays: days})
			if err != nil {
				return err
			}
			if o.json {
				return o.printJSON(o.io.Out, res)
			}
			if on {
				fmt.Fprintf(o.io.Out, "team %q: audit on, decisions kept %d days\n", res.GetTeam().GetName(), retention(res.GetTeam().GetAuditRetentionDays()))
			} else {
				fmt.Fprintf(o.io.Out, "team %q: audit off\n", res.GetTeam().GetName())
			}
			return nil
		}),
	}
	cmd.Flags().Int32Var(&days, "retention-days", 0, "how long decisions are kept (0: the server's default, 90)")
	return cmd
}

func newAPIMachinesCmd(o *teamOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "machines TEAM",
		Short: "List the team's machines: their last sync and installed revision",
		Args:  cobra.ExactArgs(1),
		RunE: o.run(func(cmd *cobra.Command, c adminClient, args []string) error {
			id, err := o.teamID(cmd.Context(), c, args[0])
			if err != nil {
				return err
			}
			// Every page, in machine id order.
			res := &teamv1.ListMachinesResponse{}
			for token := ""; ; {
				page, err := call(cmd.Context(), c.ListMachines, &teamv1.ListMachinesRequest{TeamId: id, PageSize: 1000, PageToken: token})
				if err != nil {
					return err
				}
				res.Machines = append(res.Machines, page.GetMachines()...)
				res.Revision, res.Counts = page.GetRevision(), page.GetCounts()
				if token = page.GetNextPageToken(); token == "" {
					break
				}
			}
			if o.json {
				return o.printJSON(o.io.Out, res)
			}
			w := tabwriter.NewWriter(o.io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "MACHINE\tHOST\tOS\tVERSION\tREVISION\tLAST SYNC\tSTALE")
			for _, m := range res.GetMachines() {
				mm := m.GetMachine()
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s\t%t\n", printable.Line(mm.GetId()), printable.Line(mm.GetHostname()), printable.Line(mm.GetOs()),
					printable.Line(mm.GetVersion()), mm.GetInstalledRevision(), msTime(m.GetLastSyncUnixMs()), m.GetStale())
			}
			return w.Flush()
		}),
	}
}

func newAPIDecisionsCmd(o *teamOptions) *cobra.Command {
	var f teamv1.ListDecisionsRequest
	var since string
	var limit int32
	cmd := &cobra.Command{
		Use:   "decisions TEAM",
		Short: "List the decisions the team's members uploaded (its audit), newest first",
		Args:  cobra.ExactArgs(1),
		RunE: o.run(func(cmd *cobra.Command, c adminClient, args []string) error {
			id, err := o.teamID(cmd.Context(), c, args[0])
			if err != nil {
				return err
			}
			req := &teamv1.ListDecisionsRequest{TeamId: id, ScriptName: f.ScriptName, MachineId: f.MachineId, Agent: f.Agent, Step: f.Step, TokenId: f.TokenId, Limit: limit}
			if since != "" {
				d, err := time.ParseDuration(since)
				if err != nil || d <= 0 {
					return usageErr("--since takes a positive duration (24h, 90m), got %q", since)
				}
				req.SinceUnixMs = time.Now().Add(-d).UnixMilli()
			}
			res, err := call(cmd.Context(), c.ListDecisions, req)
			if err != nil {
				return err
			}
			if o.json {
				return o.printJSON(o.io.Out, res)
			}
			w := tabwriter.NewWriter(o.io.Out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "AT\tMACHINE\tAGENT\tSTEP\tSCRIPT\tOUTCOME\tWHAT")
			for _, d := range res.GetDecisions() {
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", msTime(d.GetAtUnixMs()), printable.Line(d.GetHostname()), printable.Line(d.GetAgent()),
					printable.Line(d.GetStep()), printable.Line(d.GetScriptName()), printable.Line(d.GetOutcome()), printable.Line(clip(d.GetWhat(), 60)))
			}
			return w.Flush()
		}),
	}
	fl := cmd.Flags()
	fl.StringVar(&f.ScriptName, "script", "", "only this hook script's decisions")
	fl.StringVar(&f.MachineId, "machine", "", "only this machine's (its id, as team machines shows)")
	fl.StringVar(&f.Agent, "agent", "", "only this agent's (cursor, claude, …)")
	fl.StringVar(&f.Step, "step", "", "only this step's (beforeShellExecution, …)")
	fl.Int64Var(&f.TokenId, "token", 0, "only those this member token sent (its id, as team token list shows)")
	fl.StringVar(&since, "since", "", "only the last DURATION's (24h, 90m)")
	fl.Int32Var(&limit, "limit", 0, "at most this many (0: the server's default, 100; at most 1000)")
	return cmd
}

// clip shortens s to n runes.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
