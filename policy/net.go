package policy

import (
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

// URLHost returns the host a URL or remote address names, lower-cased,
// without user, port or IPv6 brackets: "https://User@Example.com:8443/x"
// → "example.com", "git@github.com:org/repo" → "github.com",
// "example.com/path" → "example.com" (curl and wget accept URLs without a
// scheme). It returns "" when s names no host.
func URLHost(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		if h, ok := scpHost(s); ok {
			return h
		}
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return normHost(u.Hostname())
}

// scpHost reads scp's "[user@]host:path" form, which has a colon before
// any slash (and is not a Windows drive letter).
func scpHost(s string) (string, bool) {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 {
		return "", false
	}
	if slash := strings.IndexByte(s, '/'); slash >= 0 && slash < colon {
		return "", false
	}
	host := s[:colon]
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	if len(host) == 1 || strings.HasPrefix(host, "[") {
		return "", false // C:\path, or an IPv6 literal handled by url.Parse
	}
	// host:port/path is a URL without a scheme, not scp.
	rest := s[colon+1:]
	if i := strings.IndexByte(rest, '/'); i > 0 && isDigits(rest[:i]) || isDigits(rest) {
		return "", false
	}
	return normHost(host), true
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func normHost(h string) string {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	return strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
}

// sshHost reads ssh's destination: [user@]host[:port] or
// ssh://[user@]host[:port].
func sshHost(s string) string {
	if strings.Contains(s, "://") {
		return URLHost(s)
	}
	if at := strings.LastIndexByte(s, '@'); at >= 0 {
		s = s[at+1:]
	}
	if h, _, err := net.SplitHostPort(s); err == nil {
		return normHost(h)
	}
	return normHost(s)
}

// netTool describes the options of a program that connects to hosts
// named on its command line.
type netTool struct {
	shellscan.Options
	// hostOpts name options whose value is a host (a proxy, a jump host).
	hostOpts []string
	// unknownOpts name options that make the destination unknowable from
	// the command line (a config file, a URL list, a resolver override).
	unknownOpts []string
	// operands says which operands are destinations.
	operands func(ops []string) []string
	// listen names options that make the program listen instead of
	// connecting.
	listen []string
}

var curlValue = []string{"data", "data-raw", "data-binary", "data-urlencode", "data-ascii", "json",
	"header", "proxy-header", "output", "output-dir", "user-agent", "user", "request", "form",
	"form-string", "cookie", "cookie-jar", "referer", "max-time", "connect-timeout", "proxy", "url",
	"upload-file", "write-out", "config", "cert", "key", "cacert", "capath", "range", "retry",
	"retry-delay", "retry-max-time", "limit-rate", "resolve", "connect-to", "oauth2-bearer",
	"interface", "dns-servers", "proxy-user", "max-filesize", "continue-at", "dump-header", "trace",
	"trace-ascii", "stderr", "expect100-timeout", "keepalive-time", "local-port", "preproxy",
	"socks4", "socks4a", "socks5", "socks5-hostname", "unix-socket", "abstract-unix-socket",
	"variable", "aws-sigv4", "hsts", "alt-svc", "ciphers", "pinnedpubkey", "netrc-file", "noproxy",
	"time-cond", "tls-max", "mail-from", "mail-rcpt", "request-target", "max-redirs", "speed-limit",
	"speed-time", "crlfile", "key-type", "cert-type", "pass", "proto", "proto-redir", "quote",
	"engine", "ftp-port", "krb", "login-options", "parallel-max", "rate", "url-query", "etag-save",
	"etag-compare", "proxy-cacert", "proxy-cert", "proxy-key", "doh-url", "create-file-mode"}

var wgetValue = []string{"output-document", "output-file", "append-output", "execute", "input-file",
	"base", "tries", "timeout", "wait", "quota", "directory-prefix", "user-agent", "domains",
	"reject", "accept", "level", "include-directories", "exclude-directories", "header",
	"post-data", "post-file", "user", "password", "http-user", "http-password", "referer",
	"load-cookies", "save-cookies", "ca-certificate", "certificate", "private-key",
	"bind-address", "limit-rate", "method", "body-data", "body-file", "config"}

func allOperands(ops []string) []string { return ops }

func firstOperand(ops []string) []string {
	if len(ops) == 0 {
		return nil
	}
	return ops[:1]
}

// remoteOperands keeps scp/rsync operands that name a remote host.
func remoteOperands(ops []string) []string {
	var out []string
	for _, o := range ops {
		if strings.Contains(o, "://") {
			out = append(out, o)
		} else if _, ok := scpHost(o); ok {
			out = append(out, o)
		}
	}
	return out
}

var netTools = map[string]netTool{
	"curl": {
		Options:     shellscan.Options{Short: "AbcCdDeEFHKmoPQrtTuUwxXYyz", Long: curlValue},
		hostOpts:    []string{"x", "proxy", "preproxy", "socks4", "socks4a", "socks5", "socks5-hostname", "url", "doh-url"},
		unknownOpts: []string{"K", "config", "resolve", "connect-to"},
		operands:    allOperands,
	},
	"wget": {
		Options:     shellscan.Options{Short: "oOaeiBtTwQPUDRAlIX", Long: wgetValue},
		unknownOpts: []string{"i", "input-file", "e", "execute", "config", "B", "base"},
		operands:    allOperands,
	},
	"nc":     {Options: shellscan.Options{Short: "IiMmOPpqsTVwXx"}, hostOpts: []string{"x"}, operands: firstOperand, listen: []string{"l"}},
	"ncat":   {Options: shellscan.Options{Short: "iwdpsmcex", Long: []string{"proxy", "source", "source-port", "exec", "sh-exec", "lua-exec", "wait", "idle-timeout"}}, hostOpts: []string{"proxy"}, operands: firstOperand, listen: []string{"l", "listen"}},
	"netcat": {Options: shellscan.Options{Short: "IiMmOPpqsTVwXx"}, hostOpts: []string{"x"}, operands: firstOperand, listen: []string{"l"}},
	"telnet": {Options: shellscan.Options{Short: "bBelnkX"}, operands: firstOperand},
	"ssh": {
		Options:     shellscan.Options{Short: "BbcDEeFIiJLlmOoPpQRSWw"},
		hostOpts:    []string{"J"},
		unknownOpts: []string{"F"},
		operands:    firstOperand,
	},
	"scp":   {Options: shellscan.Options{Short: "cDFiJlooPSX"}, hostOpts: []string{"J"}, unknownOpts: []string{"F"}, operands: remoteOperands},
	"sftp":  {Options: shellscan.Options{Short: "aBbcDFiJlPRSsX"}, hostOpts: []string{"J"}, unknownOpts: []string{"F"}, operands: firstOperand},
	"rsync": {Options: shellscan.Options{Short: "eBfMT", Long: []string{"rsh", "rsync-path", "filter", "exclude", "include", "exclude-from", "include-from", "files-from", "temp-dir", "compare-dest", "copy-dest", "link-dest", "partial-dir", "log-file", "password-file", "port", "address", "sockopts", "out-format", "chmod", "chown", "usermap", "groupmap", "bwlimit", "timeout", "contimeout", "modify-window", "suffix", "backup-dir", "remote-option", "block-size", "max-size", "min-size", "max-delete"}}, operands: remoteOperands},
	"ftp":   {operands: firstOperand},
}

// NetHosts returns the hosts a network command (curl, wget, nc, ncat,
// netcat, telnet, ssh, scp, sftp, rsync, ftp) would connect to, read from
// its URLs, destinations and proxy or jump-host options. An element ""
// stands for a destination that cannot be known from the command line (a
// dynamic argument, a config file, a URL list, a resolver override), so
// an allow list never matches it. Other commands yield no hosts.
func NetHosts(c shellscan.Command) []string {
	tool, ok := netTools[c.Name]
	if !ok {
		return nil
	}
	args := c.Args
	dyn := make([]bool, len(args))
	for _, i := range c.DynamicArgs {
		if i >= 0 && i < len(dyn) {
			dyn[i] = true
		}
	}
	var hosts []string
	var operands []string
	unknown := false
	// Options may follow operands (GNU style): scan repeatedly.
	for len(args) > 0 {
		opts, i := tool.Scan(args, dyn)
		for _, o := range opts {
			switch {
			case slices.Contains(tool.listen, o.Name):
				return nil
			case slices.Contains(tool.unknownOpts, o.Name):
				unknown = true
			case slices.Contains(tool.hostOpts, o.Name) && o.HasValue:
				if o.Dynamic {
					unknown = true
					continue
				}
				for _, h := range strings.Split(o.Value, ",") {
					hosts = append(hosts, hostOf(c.Name, h))
				}
			}
		}
		if i >= len(args) {
			break
		}
		if dyn[i] {
			unknown = true
		} else {
			operands = append(operands, args[i])
		}
		args, dyn = args[i+1:], dyn[i+1:]
		if c.Name == "ssh" && len(operands) > 0 {
			break // the rest is the remote command
		}
	}
	for _, o := range tool.operands(operands) {
		hosts = append(hosts, hostOf(c.Name, o))
	}
	if unknown {
		hosts = append(hosts, "")
	}
	return hosts
}

func hostOf(tool, s string) string {
	switch tool {
	case "ssh", "sftp", "nc", "ncat", "netcat", "telnet", "ftp":
		if strings.Contains(s, "://") {
			return URLHost(s)
		}
		return sshHost(s)
	case "scp", "rsync":
		if strings.Contains(s, "://") {
			return URLHost(s)
		}
		h, _ := scpHost(s)
		return h
	}
	return URLHost(s)
}
