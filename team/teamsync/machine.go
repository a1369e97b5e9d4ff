package teamsync

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/internal/atomicfile"
	"github.com/agenthooks/agenthooks/internal/lazyre"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// Machine is what each sync tells the team server about this machine, for
// the team's fleet view: which machines synced, at which revision, with
// which agenthooks and agents.
type Machine struct {
	// ID is the machine's own random id (LoadMachineID); without it,
	// nothing is reported.
	ID       string
	Hostname string
	// Version is agenthooks' version.
	Version string
	// Agents are the agents `agenthooks install` wired on the machine.
	Agents []string
}

// MachineIDFile is the file, in agenthooks' state folder, that keeps the
// machine's id.
const MachineIDFile = "machine-id"

var machineIDRE = lazyre.New(`^[0-9a-f]{32}$`)

// LoadMachineID returns the id kept in dir, and makes one the first time:
// 128 random bits, so that two machines never share one and a host name
// that changes, or repeats across machines, does not matter.
func LoadMachineID(dir string) (string, error) {
	path := filepath.Join(dir, MachineIDFile)
	data, err := os.ReadFile(path)
	if err == nil {
		if id := strings.TrimSpace(string(data)); machineIDRE().MatchString(id) {
			return id, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read the machine id: %w", err)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("make a machine id: %w", err)
	}
	id := hex.EncodeToString(b[:])
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("keep the machine id: %w", err)
	}
	if err := atomicfile.Write(path, []byte(id+"\n")); err != nil {
		return "", fmt.Errorf("keep the machine id: %w", err)
	}
	return id, nil
}

// machine is the report sent with each request: installed is the team's
// revision the hooks folder holds.
func (c *Client) machine(installed int64) *teamv1.Machine {
	m := c.opts.Machine
	if m.ID == "" {
		return nil
	}
	return &teamv1.Machine{Id: m.ID, Hostname: m.Hostname, Os: c.opts.OS, Version: m.Version,
		InstalledRevision: installed, Agents: m.Agents}
}

// report tells the server the revision now installed. A sync's request
// carries the revision installed before it, so after a change the fleet
// view would lag one sync behind; this one request, answered "unchanged",
// closes the gap. Its failure changes nothing installed.
func (c *Client) report(ctx context.Context, installed int64) {
	if c.opts.Machine.ID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	req := connect.NewRequest(&teamv1.GetTeamHooksRequest{
		ActiveOnly: true, OperatingSystem: c.opts.OS, KnownRevision: installed, Machine: c.machine(installed),
	})
	req.Header().Set("Authorization", "Bearer "+c.opts.Token)
	_, _ = c.rpc.GetTeamHooks(ctx, req)
}
