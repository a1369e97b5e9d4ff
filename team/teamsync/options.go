package teamsync

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"time"

	"connectrpc.com/connect"

	"github.com/agenthooks/agenthooks/team"
	"github.com/agenthooks/agenthooks/team/teamv1/teamv1connect"
)

// Defaults of Options and of the CLI's flags.
const (
	// DefaultInterval is how often a watching client syncs: Cursor's
	// refresh period for team hooks.
	DefaultInterval = 30 * time.Minute
	// DefaultTimeout bounds one request, so an unresponsive server costs
	// a round, not the process.
	DefaultTimeout = 30 * time.Second
	// DefaultMaxScriptBytes bounds one script. Hook scripts are small; a
	// bigger one is a mistake or an attack on the disk.
	DefaultMaxScriptBytes = 1 << 20
	// DefaultMaxResponseBytes bounds the whole answer, read before any
	// script is checked.
	DefaultMaxResponseBytes = 64 << 20
)

// Environment variables the CLI reads. The token belongs in the
// environment rather than on the command line, where ps shows it.
const (
	TokenEnv  = "AGENTHOOKS_TEAM_TOKEN"
	ServerEnv = "AGENTHOOKS_TEAM_SERVER"
)

// OSName maps a GOOS to the API's name for it. Other Unix systems get
// Linux: their hooks are POSIX shell scripts like Linux's.
func OSName(goos string) string {
	switch goos {
	case "windows":
		return team.Windows
	case "darwin", "ios":
		return team.Macintosh
	}
	return team.Linux
}

// CurrentOS is this machine's name in the team API.
func CurrentOS() string { return OSName(runtime.GOOS) }

// Options configures a Client.
type Options struct {
	// Server is the team server's base URL (https://…; http:// only to
	// a loopback address unless AllowInsecureHTTP).
	Server string
	// Token is a member token, sent as "Authorization: Bearer <token>".
	Token string
	// Home is the home folder the engine reads team hooks from
	// (config.TeamDir(Home)). Required.
	Home string
	// OS is the operating system hooks are fetched for; "" means this
	// machine's (CurrentOS). It also decides how scripts are run and
	// which file names are refused (Windows reserves CON, NUL, …).
	OS string
	// MaxScriptBytes bounds each script; 0 means DefaultMaxScriptBytes.
	MaxScriptBytes int64
	// MaxResponseBytes bounds the server's answer; 0 means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// Timeout bounds each request; 0 means DefaultTimeout.
	Timeout time.Duration
	// AllowInsecureHTTP permits plain http:// to a non-loopback host,
	// which sends the token in clear text.
	AllowInsecureHTTP bool
	// Machine describes this machine to the team's fleet view; its zero
	// value reports nothing.
	Machine Machine
	// Log is the local execution log the team's audit reads, when the
	// team turns it on; nil sends nothing.
	Log DecisionLog
	// HTTPClient carries the requests; nil means a client with the
	// default transport (proxy settings from the environment, system
	// TLS roots).
	HTTPClient connect.HTTPClient
}

// Client syncs one team server's hooks, for one token, into one home.
type Client struct {
	opts    Options
	server  string // normalised: what sync.json records
	tokenID string
	rpc     teamv1connect.TeamHooksServiceClient
}

// New checks the options and returns a client. It makes no request.
func New(o Options) (*Client, error) {
	if o.Home == "" {
		return nil, errors.New("team sync: no home folder to write the team hooks into")
	}
	server, err := NormaliseServer(o.Server, o.AllowInsecureHTTP)
	if err != nil {
		return nil, err
	}
	if err := checkToken(o.Token); err != nil {
		return nil, err
	}
	if o.OS == "" {
		o.OS = CurrentOS()
	}
	if o.OS != team.Windows && o.OS != team.Macintosh && o.OS != team.Linux {
		return nil, fmt.Errorf("team sync: unknown operating system %q (use %s, %s or %s)", o.OS, team.Windows, team.Macintosh, team.Linux)
	}
	if o.MaxScriptBytes <= 0 {
		o.MaxScriptBytes = DefaultMaxScriptBytes
	}
	if o.MaxResponseBytes <= 0 {
		o.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone(), CheckRedirect: noRedirects}
	}
	limit := o.MaxResponseBytes
	if limit > int64(^uint(0)>>1) {
		limit = int64(^uint(0) >> 1)
	}
	// Framing and compression aside, no answer may stream past the limit.
	hc = capped{next: hc, max: limit + 64<<10}
	return &Client{
		opts:    o,
		server:  server,
		tokenID: tokenID(o.Token),
		rpc:     teamv1connect.NewTeamHooksServiceClient(hc, server, connect.WithReadMaxBytes(int(limit))),
	}, nil
}

// Server is the normalised server URL the client talks to.
func (c *Client) Server() string { return c.server }

// NormaliseServer checks a team server URL and returns it without a trailing slash,
// with scheme and host lower-cased, so the same server is recognised in
// sync.json however it was typed.
func NormaliseServer(raw string, allowHTTP bool) (string, error) {
	if strings.TrimSpace(raw) == "" {
		return "", errors.New("team sync: no server URL (give --server or set " + ServerEnv + ")")
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("team sync: server URL %q: %w", raw, err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("team sync: server URL %q: the scheme must be https (or http to this machine)", raw)
	case u.Host == "":
		return "", fmt.Errorf("team sync: server URL %q has no host", raw)
	case u.User != nil:
		return "", fmt.Errorf("team sync: server URL %q carries credentials; pass the token with %s instead", u.Redacted(), TokenEnv)
	case u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("team sync: server URL %q: drop the query and fragment", raw)
	case u.Scheme == "http" && !allowHTTP && !loopback(u.Hostname()):
		return "", fmt.Errorf("team sync: server URL %q is plain http to another machine, which would send the token in clear text; use https (or allow it explicitly with --allow-http)", raw)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u.String(), nil
}

// noRedirects refuses to follow a redirect: the API lives at one URL,
// and following one could carry the token to another scheme or host.
func noRedirects(req *http.Request, _ []*http.Request) error {
	return &redirectError{to: req.URL.Redacted()}
}

// redirectError is a redirect refused: the server answered, elsewhere,
// and asking again will not change that.
type redirectError struct{ to string }

func (e *redirectError) Error() string {
	return "the server redirects to " + e.to + "; give that URL as the server instead"
}

// loopback reports whether host is this machine.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkToken refuses a token that cannot be a member token, before it is
// put in a header.
func checkToken(t string) error {
	if t == "" {
		return errors.New("team sync: no token (set " + TokenEnv + ", or give --token)")
	}
	for _, r := range t {
		if r <= ' ' || r == 0x7f {
			return errors.New("team sync: the token contains spaces or control characters; copy it again without them")
		}
	}
	return nil
}

// tokenID is a short fingerprint of the token, recorded in sync.json so a
// later sync with the same token finds its team's state (and revision)
// without asking the server. It cannot be turned back into the token.
func tokenID(token string) string {
	sum := sha256.Sum256([]byte("agenthooks team token\x00" + token))
	return hex.EncodeToString(sum[:8])
}
