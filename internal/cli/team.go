package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"connectrpc.com/connect"
	"github.com/spf13/cobra"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/agenthooks/agenthooks/internal/jsonplain"
	"github.com/agenthooks/agenthooks/team/teamsync"
	"github.com/agenthooks/agenthooks/team/teamv1"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// teamOptions are what every `agenthooks team` verb shares: the server,
// the admin token and the output format.
// adminClient is the administrators' API.
type adminClient = teamv1connect.AdminServiceClient

type teamOptions struct {
	io        *IO
	server    string
	tokenFile string
	allowHTTP bool
	json      bool
	timeout   time.Duration
}

func newTeamCmd(s *IO) *cobra.Command {
	o := &teamOptions{io: s}
	cmd := &cobra.Command{
		Use:   "team",
		Short: "Administer a team server: push a workspace's hooks, tokens, audit, fleet",
		Long: `Team runs an administrator's calls on a team server (agenthooks serve) over its API,
with an admin token: push a workspace's hooks as the team's, make and revoke tokens,
turn the audit on or off, list the fleet and the audit's decisions.

The server is read from ` + teamsync.ServerEnv + ` (or --server), the admin token from
` + teamsync.TokenEnv + ` (or --token-file: a file holding it, never the command line,
which every user of the machine can read). TEAM is a team's name or id.`,
		Example: `  agenthooks team hooks platform --json`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	f := cmd.PersistentFlags()
	f.StringVar(&o.server, "server", "", "team server URL (default $"+teamsync.ServerEnv+")")
	f.StringVar(&o.tokenFile, "token-file", "", "file holding the admin token (default $"+teamsync.TokenEnv+")")
	f.BoolVar(&o.allowHTTP, "allow-http", false, "allow plain http:// to another machine (sends the token in clear text)")
	f.BoolVar(&o.json, "json", false, "print the answer as JSON")
	f.DurationVar(&o.timeout, "timeout", 30*time.Second, "how long to wait for the server on each call")
	cmd.AddCommand(newAPIListCmd(o), newAPICreateCmd(o), newAPIHooksCmd(o), newAPIPushCmd(o),
		newAPITokenCmd(o), newAPIAuditCmd(o), newAPIMachinesCmd(o), newAPIDecisionsCmd(o))
	return cmd
}

// client connects to the server with the admin token.
func (o *teamOptions) client() (teamv1connect.AdminServiceClient, error) {
	raw := o.server
	if raw == "" {
		raw = o.io.getenv(teamsync.ServerEnv)
	}
	server, err := teamsync.NormaliseServer(raw, o.allowHTTP)
	if err != nil {
		return nil, usageErr("%s", strings.TrimPrefix(err.Error(), "team sync: "))
	}
	token := o.io.getenv(teamsync.TokenEnv)
	if o.tokenFile != "" {
		path, err := o.io.abs(o.tokenFile)
		if err != nil {
			return nil, usageErr("--token-file %s: %v", o.tokenFile, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, usageErr("--token-file: %v", err)
		}
		token = strings.TrimSpace(string(data))
	}
	switch {
	case token == "":
		return nil, usageErr("no admin token: set %s or give --token-file", teamsync.TokenEnv)
	case strings.ContainsAny(token, " \t\r\n"):
		return nil, usageErr("the admin token holds spaces or line breaks: give the ah_… secret alone")
	}
	hc := &http.Client{Timeout: o.timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	auth := connect.UnaryInterceptorFunc(func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			req.Header().Set("Authorization", "Bearer "+token)
			return next(ctx, req)
		}
	})
	return teamv1connect.NewAdminServiceClient(hc, server, connect.WithInterceptors(auth)), nil
}

// call runs one call and turns a refusal into the server's own words.
func call[Req, Resp any](ctx context.Context, method func(context.Context, *connect.Request[Req]) (*connect.Response[Resp], error), msg *Req) (*Resp, error) {
	res, err := method(ctx, connect.NewRequest(msg))
	if err != nil {
		var ce *connect.Error
		if errors.As(err, &ce) {
			return nil, fmt.Errorf("the team server refused: %s: %s", ce.Code(), ce.Message())
		}
		return nil, fmt.Errorf("the team server: %w", err)
	}
	return res.Msg, nil
}

// teamID resolves TEAM, a name or an id, to the team's id.
func (o *teamOptions) teamID(ctx context.Context, c teamv1connect.AdminServiceClient, arg string) (int64, error) {
	if arg == "" {
		return 0, usageErr("no team: give its name or id")
	}
	res, err := call(ctx, c.ListTeams, &teamv1.ListTeamsRequest{})
	if err != nil {
		return 0, err
	}
	id, numErr := strconv.ParseInt(arg, 10, 64)
	for _, t := range res.GetTeams() {
		if t.GetName() == arg || (numErr == nil && t.GetId() == id) {
			return t.GetId(), nil
		}
	}
	var names []string
	for _, t := range res.GetTeams() {
		names = append(names, fmt.Sprintf("%s (%d)", t.GetName(), t.GetId()))
	}
	if len(names) == 0 {
		return 0, fmt.Errorf("no team %q: the server has no team yet (agenthooks team create NAME)", arg)
	}
	return 0, fmt.Errorf("no team %q: the teams are %s", arg, strings.Join(names, ", "))
}

// printJSON writes an answer as the API's JSON.
func (o *teamOptions) printJSON(w io.Writer, m proto.Message) error {
	b, err := protojson.MarshalOptions{Multiline: true, Indent: "  "}.Marshal(m)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// printValue writes v (not a protobuf message) as JSON.
func printValue(w io.Writer, v any) error {
	b, err := jsonplain.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
