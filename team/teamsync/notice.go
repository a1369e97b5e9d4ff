package teamsync

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Notice is Cursor's first-time notification (docs/team-sync.md), worded
// for a terminal: the team, where its hooks come from, and each hook's step
// and script. Text from the server is made printable.
func (p *Plan) Notice() string {
	var b strings.Builder
	fmt.Fprintf(&b, "This team uses admin-enabled hooks. Team %s (id %d) at %s distributes these hooks;\n", p.teamLabel(), p.TeamID, p.Server)
	b.WriteString("once accepted they run on this machine whenever an agent reaches their step:\n")
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, h := range p.Hooks {
		extra := ""
		if h.Matcher != "" {
			extra = "matcher " + printable(h.Matcher)
		}
		if h.FailClosed {
			extra = strings.TrimLeft(extra+", fails closed", ", ")
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", h.Step, printable(h.ScriptName), extra)
	}
	tw.Flush()
	fmt.Fprintf(&b, "They are written to %s.\n", p.Dir)
	return b.String()
}

// Show writes the whole set for review: each hook's settings and its
// script, made printable.
func (p *Plan) Show(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Team %s (id %d) at %s, revision %d: %d hook(s) for this machine.\n", p.teamLabel(), p.TeamID, p.Server, p.Revision, len(p.Hooks))
	for _, warn := range p.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", warn)
	}
	for _, h := range p.Hooks {
		fmt.Fprintf(&b, "\n== hook %d: %s  %s\n", h.ID, h.Step, printable(h.ScriptName))
		fmt.Fprintf(&b, "   command: %s\n", printable(h.Command))
		if h.Matcher != "" {
			fmt.Fprintf(&b, "   matcher: %s\n", printable(h.Matcher))
		}
		if h.Timeout > 0 {
			fmt.Fprintf(&b, "   timeout: %gs\n", h.Timeout)
		}
		if h.FailClosed {
			b.WriteString("   failClosed: true\n")
		}
		if len(h.OperatingSystems) > 0 {
			fmt.Fprintf(&b, "   systems: %s\n", printable(strings.Join(h.OperatingSystems, ", ")))
		}
		if h.UpdatedBy != "" || !h.UpdatedAt.IsZero() {
			fmt.Fprintf(&b, "   updated: %s by %s\n", h.UpdatedAt.Format("2006-01-02 15:04 MST"), printable(h.UpdatedBy))
		}
		script := Printable(h.Script)
		if script != "" && !strings.HasSuffix(script, "\n") {
			script += "\n"
		}
		fmt.Fprintf(&b, "---\n%s---\n", script)
	}
	if p.Sandbox != "" {
		sb := Printable(p.Sandbox)
		if !strings.HasSuffix(sb, "\n") {
			sb += "\n"
		}
		fmt.Fprintf(&b, "\n== the team's sandbox.json (commands run through agenthooks exec are contained by it)\n---\n%s---\n", sb)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// teamLabel is the team's name, quoted and printable, or "(unnamed)".
func (p *Plan) teamLabel() string {
	if p.TeamName == "" {
		return "(unnamed)"
	}
	return fmt.Sprintf("%q", printable(p.TeamName))
}
