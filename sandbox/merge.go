package sandbox

import (
	"net/netip"
	"path/filepath"
	"slices"
	"strings"
)

// The merge, layer by layer from the lowest (docs/sandbox.md, Merging):
//
//   - user, then project: as Cursor documents it, the project's settings
//     win where it sets them; grant lists and deny lists add up;
//   - team, then enterprise (managed): each rule a managed layer sets is
//     the strictest of its value and the one below. Types order
//     insecure_none < workspace_readwrite < workspace_readonly; deny beats
//     allow; refuse beats run_unsandboxed; disableTmpWrite true and
//     enableSharedBuildCache false are stricter. A managed grant or allow
//     list is a ceiling: what is below survives only where both allow it
//     (their intersection); a managed "default": "deny" without an allow
//     list allows nothing. Deny lists always add up.
//
// A file left out (untrusted, or with errors) does not take part; errors
// stop the sandbox being built at all (Loaded.Err).

// setting is one scalar rule as merged so far, and the file that set it.
type setting[T comparable] struct {
	v    T
	from string
	set  bool
}

// grantList is one list as merged so far.
type grantList struct {
	items []Grant
	set   bool
}

type acc struct {
	typ             setting[Type]
	readBoundary    setting[string]
	disableTmp      setting[bool]
	sharedCache     setting[bool]
	netDefault      setting[string]
	unavailable     setting[string]
	rw, ro          grantList
	netAllow        grantList
	netDeny         []Rule
	files           []string
	configuredLayer bool
}

// merge folds the files, lowest layer first, into the effective policy for
// roots.
func merge(files []*File, roots []string, home string) Policy {
	var a acc
	for _, f := range files {
		if !f.Trusted || f.HasErrors() {
			continue
		}
		a.configuredLayer = true
		a.files = append(a.files, f.Path)
		if f.Layer.managed() {
			a.constrain(f, home)
		} else {
			a.override(f, home)
		}
	}
	p := Policy{
		Configured:             a.configuredLayer,
		Type:                   or(a.typ, WorkspaceReadwrite),
		TypeFrom:               a.typ.from,
		Roots:                  roots,
		ReadBoundary:           or(a.readBoundary, ReadSystem),
		ReadBoundaryFrom:       a.readBoundary.from,
		ReadwritePaths:         a.rw.items,
		ReadonlyPaths:          a.ro.items,
		DisableTmpWrite:        a.disableTmp.v,
		DisableTmpWriteFrom:    a.disableTmp.from,
		EnableSharedBuildCache: a.sharedCache.v,
		Network: Network{
			// Cursor blocks the network of sandboxed commands unless told
			// otherwise.
			Default:     or(a.netDefault, NetDeny),
			DefaultFrom: a.netDefault.from,
			Allow:       rules(a.netAllow.items),
			Deny:        a.netDeny,
		},
		Unavailable:     or(a.unavailable, UnavailableRefuse),
		UnavailableFrom: a.unavailable.from,
		Files:           a.files,
	}
	return p
}

func or[T comparable](s setting[T], def T) T {
	if s.set {
		return s.v
	}
	return def
}

func rules(gs []Grant) []Rule {
	var out []Rule
	for _, g := range gs {
		out = append(out, Rule{Pattern: g.Path, From: g.From})
	}
	return out
}

// override applies a user or project file: what it sets wins.
func (a *acc) override(f *File, home string) {
	put(&a.typ, f.Type, f.Path)
	put(&a.readBoundary, f.ReadBoundary, f.Path)
	put(&a.disableTmp, f.DisableTmpWrite, f.Path)
	put(&a.sharedCache, f.EnableSharedBuildCache, f.Path)
	put(&a.netDefault, f.NetDefault, f.Path)
	put(&a.unavailable, f.WhenUnavailable, f.Path)
	a.rw.add(paths(f, f.AdditionalReadwritePaths, home))
	a.ro.add(paths(f, f.AdditionalReadonlyPaths, home))
	a.ro.add(paths(f, f.AdditionalReadPaths, home))
	a.netAllow.add(hosts(f, f.NetAllow))
	a.netDeny = append(a.netDeny, rules(hosts(f, f.NetDeny).items)...)
}

// constrain applies a managed file: the strictest of each rule it sets.
func (a *acc) constrain(f *File, home string) {
	stricter(&a.typ, f.Type, f.Path, func(x, y Type) bool { return x.strictness() > y.strictness() })
	stricter(&a.readBoundary, f.ReadBoundary, f.Path, func(x, _ string) bool { return x == ReadWorkspace })
	stricter(&a.disableTmp, f.DisableTmpWrite, f.Path, func(x, _ bool) bool { return x })
	stricter(&a.sharedCache, f.EnableSharedBuildCache, f.Path, func(x, _ bool) bool { return !x })
	stricter(&a.netDefault, f.NetDefault, f.Path, func(x, _ string) bool { return x == NetDeny })
	stricter(&a.unavailable, f.WhenUnavailable, f.Path, func(x, _ string) bool { return x == UnavailableRefuse })
	a.rw.intersect(paths(f, f.AdditionalReadwritePaths, home), pathCovers)
	read := paths(f, f.AdditionalReadonlyPaths, home)
	if rp := paths(f, f.AdditionalReadPaths, home); rp.set {
		read.items, read.set = append(read.items, rp.items...), true
	}
	a.ro.intersect(read, pathCovers)
	allow := hosts(f, f.NetAllow)
	if f.NetDefault != nil && *f.NetDefault == NetDeny && !allow.set {
		// A managed "deny by default" with no allow list allows nothing:
		// the layers below cannot add hosts to it. To let them, it
		// writes "allow": ["*"].
		allow.set = true
	}
	a.netAllow.intersect(allow, hostCovers)
	a.netDeny = append(a.netDeny, rules(hosts(f, f.NetDeny).items)...)
}

func put[T comparable](s *setting[T], v *T, from string) {
	if v != nil {
		*s = setting[T]{v: *v, from: from, set: true}
	}
}

// stricter sets s to v when s is unset or v is stricter than it
// (isStricter(v, s.v)); an equal value keeps the lower file's name.
func stricter[T comparable](s *setting[T], v *T, from string, isStricter func(x, y T) bool) {
	if v == nil {
		return
	}
	if !s.set || (*v != s.v && isStricter(*v, s.v)) {
		*s = setting[T]{v: *v, from: from, set: true}
	}
}

func (l *grantList) add(g grantList) {
	if g.set {
		l.items, l.set = append(l.items, g.items...), true
	}
}

// intersect keeps what both lists allow: each item of either that an
// item of the other covers. An unset upper list leaves l as it is; an
// unset l takes upper as it is.
func (l *grantList) intersect(upper grantList, covers func(outer, inner string) bool) {
	if !upper.set {
		return
	}
	if !l.set {
		*l = upper
		return
	}
	var out []Grant
	keep := func(g Grant, others []Grant) {
		for _, o := range others {
			if covers(o.Path, g.Path) {
				if !slices.ContainsFunc(out, func(x Grant) bool { return x.Path == g.Path }) {
					out = append(out, g)
				}
				return
			}
		}
	}
	for _, g := range l.items {
		keep(g, upper.items)
	}
	for _, g := range upper.items {
		keep(g, l.items)
	}
	l.items = out
}

// paths resolves a file's path list: ~ to home, a relative path against
// the file's workspace root (a project file) or its own folder.
func paths(f *File, list *[]string, home string) grantList {
	if list == nil {
		return grantList{}
	}
	g := grantList{set: true}
	for _, p := range *list {
		g.items = append(g.items, Grant{Path: resolvePath(p, f, home), From: f.Path})
	}
	return g
}

func resolvePath(p string, f *File, home string) string {
	switch {
	case p == "~":
		return filepath.Clean(home)
	case strings.HasPrefix(p, "~/"):
		return filepath.Join(home, p[2:])
	case filepath.IsAbs(p):
		return filepath.Clean(p)
	case f.Root != "":
		return filepath.Join(f.Root, p)
	}
	return filepath.Join(filepath.Dir(f.Path), p)
}

func hosts(f *File, list *[]string) grantList {
	if list == nil {
		return grantList{}
	}
	g := grantList{set: true}
	for _, h := range *list {
		g.items = append(g.items, Grant{Path: strings.ToLower(strings.TrimSuffix(h, ".")), From: f.Path})
	}
	return g
}

// pathCovers says inner is outer or below it.
func pathCovers(outer, inner string) bool {
	return inner == outer || strings.HasPrefix(inner, strings.TrimSuffix(outer, string(filepath.Separator))+string(filepath.Separator))
}

// hostCovers says every host inner matches, outer matches too: the same
// pattern, a name under outer's *.domain, an address in outer's block.
func hostCovers(outer, inner string) bool {
	if outer == "*" || outer == inner {
		return true
	}
	if pfx, err := netip.ParsePrefix(outer); err == nil {
		if ip, err := netip.ParseAddr(inner); err == nil {
			return pfx.Contains(ip)
		}
		if in, err := netip.ParsePrefix(inner); err == nil {
			return in.Bits() >= pfx.Bits() && pfx.Contains(in.Addr())
		}
		return false
	}
	if dom, ok := strings.CutPrefix(outer, "*."); ok {
		name := strings.TrimPrefix(inner, "*.")
		return strings.HasSuffix(name, "."+dom)
	}
	return false
}
