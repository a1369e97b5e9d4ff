package cli

import (
	"context"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
	"github.com/agenthooks/agenthooks/trust"
)

// openEngine loads the engine the way every verb that runs hooks does:
// default locations (overridable by environment), the trust store of the
// config dir. The returned function releases what the engine holds.
func openEngine(ctx context.Context, roots []string) (*engine.Engine, func() error, error) {
	_ = ctx
	ts, err := trust.Open(trust.DefaultDir())
	if err != nil {
		return nil, nil, err
	}
	eng, err := engine.Load(engine.Options{
		Locations: config.DefaultLocations(roots),
		Trust:     ts,
	})
	if err != nil {
		return nil, nil, err
	}
	return eng, func() error { return nil }, nil
}
