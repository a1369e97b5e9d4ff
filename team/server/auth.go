package server

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team/store"
)

type tokenKey struct{}

// caller is the token a request authenticated with.
func caller(ctx context.Context) store.Token {
	t, _ := ctx.Value(tokenKey{}).(store.Token)
	return t
}

// authenticate admits a call carrying "Authorization: Bearer SECRET"
// of a live token with the role the service needs: a missing, unknown
// or revoked token is Unauthenticated, a token of the other role is
// PermissionDenied. Every call is checked against the store. A member's
// poll may be answered from the store's memo (emptied on every change,
// through the watcher on other replicas); an administrator's call always
// reads the database, so an admin token revoked through one replica is
// refused by every other at once.
func (s *Server) authenticate(need store.Role) connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			secret, ok := bearer(req.Header().Get("Authorization"))
			if !ok {
				return nil, unauthenticated(`no bearer token: send the header "Authorization: Bearer ah_…" with a token from "agenthooks serve token create" or AdminService.CreateToken`)
			}
			authenticate := s.cfg.Store.Authenticate
			if need == store.RoleAdmin {
				authenticate = s.cfg.Store.AuthenticateNow
			}
			tok, err := authenticate(ctx, secret)
			if errors.Is(err, store.ErrNotFound) {
				return nil, unauthenticated("the bearer token is not valid (mistyped, or revoked): ask an administrator for a new one")
			}
			if err != nil {
				return nil, toConnect(s.log, req.Spec().Procedure, err)
			}
			if who, ok := ctx.Value(whoKey{}).(*string); ok {
				*who = tok.Name
			}
			if tok.Role != need {
				return nil, connect.NewError(connect.CodePermissionDenied, roleError(tok, need))
			}
			return next(context.WithValue(ctx, tokenKey{}, tok), req)
		}
	}
}

func roleError(tok store.Token, need store.Role) error {
	if need == store.RoleAdmin {
		return fmt.Errorf("token %q is a member token, which only reads its team's hooks: the AdminService needs an admin token", tok.Name)
	}
	return fmt.Errorf("token %q is an admin token, which belongs to no team: GetTeamHooks needs a member token of the team (AdminService.CreateToken with role \"member\")", tok.Name)
}

func unauthenticated(msg string) error {
	err := connect.NewError(connect.CodeUnauthenticated, errors.New(msg))
	err.Meta().Set("WWW-Authenticate", `Bearer realm="agenthooks"`)
	return err
}

// bearer takes the secret out of an Authorization header value; the
// scheme is case-insensitive (RFC 7235).
func bearer(h string) (string, bool) {
	scheme, secret, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	secret = strings.TrimSpace(secret)
	return secret, secret != ""
}
