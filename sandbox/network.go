package sandbox

import (
	"fmt"
	"net/netip"
	"strings"
)

// verdict is the network policy's answer for one destination, with the
// rule behind it so a refusal can name it.
type verdict struct {
	ok     bool
	reason string
}

// matchHost says whether pattern matches the host name or address host.
// *.domain matches names below the domain, not the domain itself; an
// address or block matches addresses only.
func matchHost(pattern, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if pattern == "*" {
		return true
	}
	if pfx, err := netip.ParsePrefix(pattern); err == nil {
		ip, err := netip.ParseAddr(host)
		return err == nil && pfx.Contains(ip.Unmap())
	}
	if ip, err := netip.ParseAddr(pattern); err == nil {
		h, err := netip.ParseAddr(host)
		return err == nil && h.Unmap() == ip.Unmap()
	}
	if dom, ok := strings.CutPrefix(pattern, "*."); ok {
		return strings.HasSuffix(host, "."+dom)
	}
	return host == pattern
}

// checkName is the decision on a name (or address) before it is resolved:
// deny wins over allow; otherwise an allow entry or default allow lets it
// through.
func (n Network) checkName(host string) verdict {
	for _, r := range n.Deny {
		if matchHost(r.Pattern, host) {
			return verdict{reason: fmt.Sprintf("%s is denied by networkPolicy.deny %q in %s", host, r.Pattern, r.From)}
		}
	}
	for _, r := range n.Allow {
		if matchHost(r.Pattern, host) {
			return verdict{ok: true}
		}
	}
	if n.Default == NetAllow {
		return verdict{ok: true}
	}
	return verdict{reason: fmt.Sprintf("%s is not in networkPolicy.allow, and networkPolicy.default is deny%s", host, from(n.DefaultFrom, "by default"))}
}

// checkAddr is the decision on one address a name resolved to. Deny
// blocks apply to it; a private, loopback, link-local (cloud metadata) or
// unspecified address is refused unless an address or block in allow
// covers it, or the name itself is allowed exactly (not by a wildcard,
// which anyone holding a subdomain could point anywhere).
func (n Network) checkAddr(host string, ip netip.Addr) verdict {
	ip = ip.Unmap()
	for _, r := range n.Deny {
		if matchHost(r.Pattern, ip.String()) {
			return verdict{reason: fmt.Sprintf("%s (%s) is denied by networkPolicy.deny %q in %s", host, ip, r.Pattern, r.From)}
		}
	}
	if !special(ip) {
		return verdict{ok: true}
	}
	for _, r := range n.Allow {
		if r.Pattern == "*" || strings.HasPrefix(r.Pattern, "*.") {
			continue
		}
		if matchHost(r.Pattern, ip.String()) || r.Pattern == strings.ToLower(strings.TrimSuffix(host, ".")) {
			return verdict{ok: true}
		}
	}
	return verdict{reason: fmt.Sprintf("%s resolves to %s, a private, loopback or metadata address, which only an exact networkPolicy.allow entry opens", host, ip)}
}

// special is an address the sandbox keeps a command from by default.
func special(ip netip.Addr) bool {
	return ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast() ||
		netip.MustParsePrefix("100.64.0.0/10").Contains(ip) // carrier-grade NAT, as some clouds use
}

func from(file, otherwise string) string {
	if file == "" {
		return " (" + otherwise + ")"
	}
	return " (" + file + ")"
}
