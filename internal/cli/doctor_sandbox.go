package cli

import (
	"fmt"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/host"
	"github.com/agenthooks/agenthooks/sandbox"
)

// sandbox reports the workspace's effective sandbox, what agenthooks exec
// and agenthooks -c run commands in: a problem when it cannot be built,
// when the kernel cannot enforce it and commands are refused, or when a
// project sandbox file is left out untrusted.
func (d *doctor) sandbox(h *host.Host) {
	l := h.Sandbox([]string{d.root})
	for _, p := range l.Problems {
		if p.Severity == config.Warning && strings.Contains(p.Message, "not trusted") {
			d.add(doctorCheck{Check: "sandbox", Detail: p.File + ": " + p.Message, Fix: p.Fix})
		}
	}
	p := l.Policy
	switch {
	case l.Err() != nil:
		d.add(doctorCheck{Check: "sandbox", Detail: "cannot be built, so exec refuses every command: " + l.Err().Error(),
			Fix: "agenthooks validate, and fix what it reports; review the workspace, then agenthooks trust " + d.root})
	case !p.Configured:
		d.add(doctorCheck{Check: "sandbox", OK: true, Detail: "no sandbox.json applies: the commands agenthooks exec runs are not contained (hooks see sandbox: false)"})
	case !p.Enabled():
		d.add(doctorCheck{Check: "sandbox", OK: true, Detail: "off (type insecure_none, " + p.TypeFrom + ")"})
	default:
		summary := fmt.Sprintf("type %s, reads %s, network %s", p.Type, p.ReadBoundary, p.Network.Default)
		if len(p.Network.Allow) > 0 {
			summary += fmt.Sprintf(" (%d allowed)", len(p.Network.Allow))
		}
		summary += ", from " + strings.Join(p.Files, ", ")
		if err := sandbox.Supported(p); err != nil {
			if p.Unavailable == sandbox.UnavailableRunOpen {
				d.add(doctorCheck{Check: "sandbox", Detail: fmt.Sprintf("not available here (%v): commands run open, as whenUnavailable allows; %s", err, summary),
					Fix: "run on a kernel with Landlock ABI 6 or later (Linux 6.12)"})
				return
			}
			d.add(doctorCheck{Check: "sandbox", Detail: fmt.Sprintf("not available here (%v): exec refuses every command; %s", err, summary),
				Fix: `run on a kernel with Landlock, or set "whenUnavailable": "run_unsandboxed" to run commands open here`})
			return
		}
		d.add(doctorCheck{Check: "sandbox", OK: true, Detail: "on: " + summary})
		d.ownFolders(p)
	}
}
