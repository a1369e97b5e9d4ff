package server

import (
	"context"
	"errors"
	"log/slog"

	"connectrpc.com/connect"

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
	case errors.Is(err, store.ErrConflict):
		return connect.NewError(connect.CodeAlreadyExists, err)
	case errors.Is(err, context.Canceled):
		return connect.NewError(connect.CodeCanceled, err)
	case errors.Is(err, context.DeadlineExceeded):
		return connect.NewError(connect.CodeDeadlineExceeded, err)
	}
	log.Error("request failed", "procedure", procedure, "err", err)
	return connect.NewError(connect.CodeInternal, errors.New("internal error (the server's log has the details)"))
}

// invalid is a request the server refuses before it reaches the store.
func invalid(field, problem, fix string) error {
	return connect.NewError(connect.CodeInvalidArgument, &store.ValidationError{Field: field, Problem: problem, Fix: fix})
}
