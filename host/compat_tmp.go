package host

// Temporary until the state store's bounded write lands.

import (
	"context"
	"encoding/json"

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

func topField(payload []byte, k string) (json.RawMessage, bool, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(payload, &m); err != nil {
		return nil, false, err
	}
	v, ok := m[k]
	return v, ok, nil
}
