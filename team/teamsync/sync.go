package teamsync

import (
	"context"
)

// Confirm is asked whether a team's hooks may be installed the first time
// (Cursor's first-time notification, docs/team-sync.md). It gets the plan,
// whose Notice is what to show.
type Confirm func(ctx context.Context, p *Plan) (bool, error)

// AcceptAll is the Confirm of --accept.
func AcceptAll(context.Context, *Plan) (bool, error) { return true, nil }

// Sync fetches, checks and installs the team's hooks: Fetch, then, when
// the set needs acceptance, confirm (nil declines), then Apply. On any
// error nothing on disk has changed.
func (c *Client) Sync(ctx context.Context, confirm Confirm) (*Result, error) {
	p, err := c.Fetch(ctx)
	if err != nil {
		return nil, err
	}
	accept := false
	if p.NeedsAcceptance {
		if confirm != nil {
			if accept, err = confirm(ctx, p); err != nil {
				return nil, err
			}
		}
		if !accept {
			return nil, &NotAcceptedError{Plan: p}
		}
	}
	res, err := c.Apply(ctx, p, accept)
	if err == nil && res.Changed {
		c.report(ctx, res.Revision)
	}
	return res, err
}
