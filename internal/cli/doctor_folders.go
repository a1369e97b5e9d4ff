package cli

import (
	"path/filepath"

	"github.com/agenthooks/agenthooks/internal/wire"
	"github.com/agenthooks/agenthooks/sandbox"
	"github.com/agenthooks/agenthooks/state"
	"github.com/agenthooks/agenthooks/trust"
)

// ownFolders warns when a folder agenthooks trusts lies where the
// effective sandbox lets commands write (a home under the temporary
// folder, an additionalReadwritePaths that covers it): a command could
// then trust its own workspace, loosen the user's sandbox.json, or plant
// state. docs/sandbox.md, the threat model.
func (d *doctor) ownFolders(p sandbox.Policy) {
	type folder struct{ what, path, risk string }
	folders := []folder{
		{"the trust store and config", trust.DefaultDir(d.getenv), "trust its own workspace"},
		{"the user's hooks and sandbox files", filepath.Join(d.home, ".cursor"), "change the user's hooks or loosen the user's sandbox.json"},
		{"the state folder", state.DefaultDir(d.getenv), "rewrite sessions and the execution log"},
	}
	if wire.Supported {
		if dir, err := wire.Dir(d.getenv); err == nil {
			folders = append(folders, folder{"the engine's folder", dir, "hold the engine's lock and keep it from starting"})
		}
	}
	bad := false
	for _, f := range folders {
		if f.path == "" {
			continue
		}
		if g := p.WriteGrant(f.path); g != "" {
			bad = true
			d.add(doctorCheck{Check: "sandbox-folders",
				Detail: f.what + " (" + f.path + ") is inside " + g + ", which the sandbox lets commands write: a command could " + f.risk,
				Fix: "keep the home out of the temporary folder (or set \"disableTmpWrite\": true), keep additionalReadwritePaths off it, " +
					"or set AGENTHOOKS_CONFIG_DIR, AGENTHOOKS_STATE_DIR and XDG_RUNTIME_DIR to folders outside what the sandbox grants"})
		}
	}
	if !bad {
		d.add(doctorCheck{Check: "sandbox-folders", OK: true, Detail: "agenthooks' own folders lie outside what sandboxed commands may write"})
	}
}
