package host

// Temporary until the state store's bounded write lands.

import (
	"context"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/state"
)

func stateOptions() (state.Options, []error) {
	o, err := state.OptionsFromEnv()
	if err != nil {
		return state.Options{}, []error{err}
	}
	return o, nil
}

func writeBounded(ctx context.Context, s *state.Store, recs []audit.Record) error {
	return s.Write(ctx, recs)
}
