package install

import (
	"bytes"
	"fmt"
)

// Pending reports, without writing anything, whether Install with o would
// change the agent's file, and whether that file exists: what agenthooks
// setup shows before it asks.
func (as Agents) Pending(o Options) (change, exists bool, err error) {
	a, path, err := as.resolve(o)
	if err != nil {
		return false, false, err
	}
	current, exists, err := ReadFile(path)
	if err != nil {
		return false, exists, err
	}
	want, err := render(a, current, exists, o.Binary)
	if err != nil {
		return false, exists, fmt.Errorf("%s: %w (fix the file, or move it away)", path, err)
	}
	return !exists || !bytes.Equal(want, current), exists, nil
}
