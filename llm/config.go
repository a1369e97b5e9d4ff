package llm

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// The providers, as AGENTHOOKS_LLM_PROVIDER spells them.
const (
	OpenAI    = "openai"
	Anthropic = "anthropic"
)

// Public endpoints and fast default models. OpenAI's base includes /v1
// because every OpenAI-compatible server documents its base that way
// (http://localhost:11434/v1 for Ollama); Anthropic's does not, as in
// Anthropic's SDKs.
const (
	DefaultOpenAIBaseURL    = "https://api.openai.com/v1"
	DefaultAnthropicBaseURL = "https://api.anthropic.com"
	DefaultOpenAIModel      = "gpt-4.1-mini"
	DefaultAnthropicModel   = "claude-haiku-4-5"
	DefaultOpenAIKeyEnv     = "OPENAI_API_KEY"
	DefaultAnthropicKeyEnv  = "ANTHROPIC_API_KEY"
)

// The environment variables FromEnv reads.
const (
	EnvProvider  = "AGENTHOOKS_LLM_PROVIDER"
	EnvBaseURL   = "AGENTHOOKS_LLM_BASE_URL"
	EnvAPIKeyEnv = "AGENTHOOKS_LLM_API_KEY_ENV"
	EnvModel     = "AGENTHOOKS_LLM_MODEL"
)

// Config configures a client. Zero fields take the provider's defaults.
type Config struct {
	// Provider is OpenAI or Anthropic.
	Provider string
	// BaseURL is the API root: requests go to BaseURL/chat/completions
	// (OpenAI) or BaseURL/v1/messages (Anthropic).
	BaseURL string
	// APIKey may be empty for local servers that need none.
	APIKey Secret
	// KeyEnv names the variable the key came from, for error messages.
	KeyEnv string
	// Model is used when a request names none.
	Model string
	// HTTPClient sends the requests; nil means one with sane transport
	// timeouts and no redirects (see newHTTPClient).
	HTTPClient *http.Client
	// Retry tunes retries; zero fields take the defaults.
	Retry Retry
}

// Retry says how overloads and server errors are retried. Every retry
// happens inside the caller's deadline: a wait that would end past it is
// not started.
type Retry struct {
	// MaxAttempts bounds the requests per Judge call, the first included
	// (default 4).
	MaxAttempts int
	// Base is the first backoff (default 250 ms); each further one doubles,
	// up to Max (default 4 s), with up to half of it taken off at random
	// so that many hooks retrying at once spread out.
	Base, Max time.Duration
	// MaxRetryAfter is the longest Retry-After the client will wait
	// (default 20 s); a server asking for more gets no retry.
	MaxRetryAfter time.Duration
}

func (r Retry) withDefaults() Retry {
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = 4
	}
	if r.Base <= 0 {
		r.Base = 250 * time.Millisecond
	}
	if r.Max <= 0 {
		r.Max = 4 * time.Second
	}
	if r.MaxRetryAfter <= 0 {
		r.MaxRetryAfter = 20 * time.Second
	}
	return r
}

// FromEnv builds a client from the environment (getenv is os.Getenv in
// production, a map lookup in tests):
//
//   - AGENTHOOKS_LLM_PROVIDER: openai or anthropic; default anthropic when
//     ANTHROPIC_API_KEY is set, else openai.
//   - AGENTHOOKS_LLM_BASE_URL: the API root; default the provider's public
//     endpoint.
//   - AGENTHOOKS_LLM_API_KEY_ENV: the name of the variable holding the key;
//     default OPENAI_API_KEY or ANTHROPIC_API_KEY. An empty key is allowed
//     (local servers); against a public endpoint Judge then fails at once.
//   - AGENTHOOKS_LLM_MODEL: the default model; a hook's "model" overrides it.
//
// It fails only on values that cannot work, naming the variable and the fix,
// and never reaches the network.
func FromEnv(getenv func(string) string) (Client, error) {
	cfg, err := ConfigFromEnv(getenv)
	if err != nil {
		return nil, err
	}
	return New(cfg)
}

// Check reports what would make every model call fail in this
// environment, before any is made: a setting that cannot work, or no key
// for a public endpoint. It never reaches the network.
func Check(getenv func(string) string) error {
	c, err := FromEnv(getenv)
	if err != nil {
		return err
	}
	if k, ok := c.(interface{ checkKey() error }); ok {
		return k.checkKey()
	}
	return nil
}

// ConfigFromEnv is FromEnv's first half, for callers that want to adjust
// the configuration (an HTTP client, retries) before building the client.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	var cfg Config
	switch p := strings.ToLower(get(EnvProvider)); p {
	case "":
		cfg.Provider = OpenAI
		if getenv(DefaultAnthropicKeyEnv) != "" {
			cfg.Provider = Anthropic
		}
	case OpenAI, Anthropic:
		cfg.Provider = p
	default:
		return Config{}, fmt.Errorf("%s: unknown provider %q (fix: use %q or %q)", EnvProvider, get(EnvProvider), OpenAI, Anthropic)
	}
	cfg.BaseURL = get(EnvBaseURL)
	cfg.Model = get(EnvModel)
	cfg.KeyEnv = get(EnvAPIKeyEnv)
	if cfg.KeyEnv == "" {
		cfg.KeyEnv = defaultKeyEnv(cfg.Provider)
	} else if !settings.IsVarName(cfg.KeyEnv) {
		return Config{}, fmt.Errorf("%s: %q is not a variable name (fix: give the name of the variable that holds the key, e.g. OPENROUTER_API_KEY, not the key or $NAME)", EnvAPIKeyEnv, clip(cfg.KeyEnv, 3))
	}
	cfg.APIKey = Secret(strings.TrimSpace(getenv(cfg.KeyEnv)))
	return cfg, nil
}

// ConfiguredKeyEnv returns the name of the variable AGENTHOOKS_LLM_API_KEY_ENV
// points the key at, or "" when it is unset or not a variable name (then
// the key, if any, comes from OPENAI_API_KEY or ANTHROPIC_API_KEY, which
// are the user's own). A host withholds the named variable from hooks:
// it was set up for agenthooks alone.
func ConfiguredKeyEnv(getenv func(string) string) string {
	if k := strings.TrimSpace(getenv(EnvAPIKeyEnv)); settings.IsVarName(k) {
		return k
	}
	return ""
}

func defaultKeyEnv(provider string) string {
	if provider == Anthropic {
		return DefaultAnthropicKeyEnv
	}
	return DefaultOpenAIKeyEnv
}

// New builds the client for cfg.Provider.
func New(cfg Config) (Client, error) {
	c, err := newBase(cfg)
	if err != nil {
		return nil, err
	}
	switch c.cfg.Provider {
	case Anthropic:
		return &anthropicClient{base: c}, nil
	default:
		return &openAIClient{base: c}, nil
	}
}

// newBase fills the defaults and checks the URL.
func newBase(cfg Config) (*base, error) {
	switch cfg.Provider {
	case OpenAI, Anthropic:
	case "":
		cfg.Provider = OpenAI
	default:
		return nil, fmt.Errorf("llm: unknown provider %q (fix: use %q or %q)", cfg.Provider, OpenAI, Anthropic)
	}
	public := false
	if cfg.BaseURL == "" {
		public = true
		cfg.BaseURL = DefaultOpenAIBaseURL
		if cfg.Provider == Anthropic {
			cfg.BaseURL = DefaultAnthropicBaseURL
		}
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%s: %q is not an http(s) URL without query (fix: e.g. http://localhost:11434/v1 for Ollama, https://api.anthropic.com for Anthropic)", EnvBaseURL, redact(cfg.BaseURL, cfg.APIKey))
	}
	if u.User != nil {
		return nil, fmt.Errorf("%s: %s carries credentials (fix: put the key in the variable named by %s instead)", EnvBaseURL, u.Redacted(), EnvAPIKeyEnv)
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Model == "" {
		cfg.Model = DefaultOpenAIModel
		if cfg.Provider == Anthropic {
			cfg.Model = DefaultAnthropicModel
		}
	}
	if cfg.KeyEnv == "" {
		cfg.KeyEnv = defaultKeyEnv(cfg.Provider)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = newHTTPClient()
	}
	cfg.Retry = cfg.Retry.withDefaults()
	return &base{cfg: cfg, public: public}, nil
}
