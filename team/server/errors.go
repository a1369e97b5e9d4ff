package server

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"syscall"

	"connectrpc.com/connect"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agenthooks/agenthooks/team/store"
)

// toConnect gives a store error its RPC code. Errors the caller can act
// on keep their message (it names the field or object and the fix);
// anything else is logged and answered with a generic message, since it
// may describe the database.
func toConnect(log *slog.Logger, procedure string, err error) error {
	var ve *store.ValidationError
	switch {
	case errors.As(err, &ve):
		return connect.NewError(connect.CodeInvalidArgument, err)
	case errors.Is(err, store.ErrNotFound):
		return connect.NewError(connect.CodeNotFound, err)
	case errors.Is(err, store.ErrMachineTaken):
		return connect.NewError(connect.CodePermissionDenied, fmt.Errorf("%w: each machine sends under the token that first reported it", err))
	case errors.Is(err, store.ErrQuota):
		return connect.NewError(connect.CodeResourceExhausted, fmt.Errorf("%w: the decisions stay on the machine and are sent after midnight UTC (an administrator can raise the limit: agenthooks serve --upload-daily-decisions)", err))
	case errors.Is(err, store.ErrStale):
		return connect.NewError(connect.CodeAborted, fmt.Errorf("%w: read the team's hooks again and retry", err))
	case errors.Is(err, store.ErrConflict):
		return connect.NewError(connect.CodeAlreadyExists, err)
	case errors.Is(err, store.ErrListingGone):
		return connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("page_token: %w (a listing's pages last %v): list from the first page again", err, store.ListingTTL))
	case errors.Is(err, store.ErrAuditOff):
		return connect.NewError(connect.CodeFailedPrecondition, fmt.Errorf("%w: an administrator turns it on (SetTeamAudit, or the dashboard); until then nothing is sent", err))
	case errors.Is(err, context.Canceled):
		return connect.NewError(connect.CodeCanceled, err)
	case errors.Is(err, context.DeadlineExceeded):
		return connect.NewError(connect.CodeDeadlineExceeded, err)
	case unreachable(err):
		log.Error("database unavailable", "procedure", procedure, "err", err)
		return connect.NewError(connect.CodeUnavailable, errors.New("the database does not answer; try again shortly (the server's log has the details)"))
	}
	log.Error("request failed", "procedure", procedure, "err", err)
	return connect.NewError(connect.CodeInternal, errors.New("internal error (the server's log has the details)"))
}

// unreachable reports whether err says the database could not be
// reached, rather than that it refused the request: a client should retry
// such a call, not give up on it.
func unreachable(err error) bool {
	var ne net.Error
	var ce *pgconn.ConnectError
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// Class 08 is "connection exception"; 57P01-57P03 are a server
		// shutting down or starting up.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	return errors.As(err, &ce) || errors.As(err, &ne) ||
		errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || pgconn.SafeToRetry(err) ||
		strings.Contains(err.Error(), "sql: database is closed")
}

// invalid is a request the server refuses before it reaches the store.
func invalid(field, problem, fix string) error {
	return connect.NewError(connect.CodeInvalidArgument, &store.ValidationError{Field: field, Problem: problem, Fix: fix})
}
