package sandbox

import (
	"fmt"
	"strings"
)

// Describe is the effective sandbox in words, for agenthooks test: whether
// commands run inside it here, each rule with the file that set it, and
// the problems of the files.
func Describe(l *Loaded) string {
	var b strings.Builder
	p := l.Policy
	line := func(format string, a ...any) { fmt.Fprintf(&b, "  "+format+"\n", a...) }
	switch {
	case l.Err() != nil:
		b.WriteString("sandbox: cannot be built, so exec refuses every command\n")
		line("%v", l.Err())
	case !p.Configured:
		b.WriteString("sandbox: none (no sandbox.json in any layer): commands run open, hooks see sandbox: false\n")
	case !p.Enabled():
		fmt.Fprintf(&b, "sandbox: off (type insecure_none%s): commands run open, hooks see sandbox: false\n", from(p.TypeFrom, "default"))
	default:
		if err := Supported(p); err != nil {
			if p.Unavailable == UnavailableRunOpen {
				fmt.Fprintf(&b, "sandbox: not available here (%v): commands run open, as whenUnavailable allows\n", err)
			} else {
				fmt.Fprintf(&b, "sandbox: not available here (%v): exec refuses every command\n", err)
			}
		} else {
			b.WriteString("sandbox: on: commands run inside it, hooks see sandbox: true\n")
		}
		line("type             %s%s", p.Type, from(p.TypeFrom, "default"))
		line("read boundary    %s%s", p.ReadBoundary, from(p.ReadBoundaryFrom, "default"))
		for _, g := range p.ReadwritePaths {
			line("read-write       %s (%s)", g.Path, g.From)
		}
		for _, g := range p.ReadonlyPaths {
			line("read-only        %s (%s)", g.Path, g.From)
		}
		line("temporary files  %s%s", map[bool]string{true: "not writable", false: "writable"}[p.DisableTmpWrite], from(p.DisableTmpWriteFrom, "default"))
		if p.EnableSharedBuildCache {
			line("build caches     writable")
		}
		line("network default  %s%s", p.Network.Default, from(p.Network.DefaultFrom, "default"))
		for _, r := range p.Network.Allow {
			line("network allow    %s (%s)", r.Pattern, r.From)
		}
		for _, r := range p.Network.Deny {
			line("network deny     %s (%s)", r.Pattern, r.From)
		}
	}
	for _, f := range p.Files {
		line("file             %s", f)
	}
	for _, pr := range l.Problems {
		line("problem: %s", pr.Error())
	}
	return b.String()
}
