package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestConfigFromEnvDefaults(t *testing.T) {
	for _, tc := range []struct {
		name                         string
		env                          func(string) string
		provider, base, model, keyEv string
		key                          Secret
	}{
		{"nothing set: openai", env(), OpenAI, DefaultOpenAIBaseURL, DefaultOpenAIModel, "OPENAI_API_KEY", ""},
		{"openai key", env("OPENAI_API_KEY", "sk-open"), OpenAI, DefaultOpenAIBaseURL, DefaultOpenAIModel, "OPENAI_API_KEY", "sk-open"},
		{"anthropic key picks anthropic", env("ANTHROPIC_API_KEY", "sk-ant", "OPENAI_API_KEY", "sk-open"),
			Anthropic, DefaultAnthropicBaseURL, DefaultAnthropicModel, "ANTHROPIC_API_KEY", "sk-ant"},
		{"explicit provider wins", env("AGENTHOOKS_LLM_PROVIDER", " OpenAI ", "ANTHROPIC_API_KEY", "sk-ant"),
			OpenAI, DefaultOpenAIBaseURL, DefaultOpenAIModel, "OPENAI_API_KEY", ""},
		{"ollama", env("AGENTHOOKS_LLM_BASE_URL", "http://localhost:11434/v1/", "AGENTHOOKS_LLM_MODEL", "llama3.2"),
			OpenAI, "http://localhost:11434/v1", "llama3.2", "OPENAI_API_KEY", ""},
		{"key from another variable", env("AGENTHOOKS_LLM_API_KEY_ENV", "OPENROUTER_API_KEY", "OPENROUTER_API_KEY", "sk-or-1",
			"AGENTHOOKS_LLM_BASE_URL", "https://openrouter.ai/api/v1"),
			OpenAI, "https://openrouter.ai/api/v1", DefaultOpenAIModel, "OPENROUTER_API_KEY", "sk-or-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := ConfigFromEnv(tc.env)
			if err != nil {
				t.Fatal(err)
			}
			b, err := newBase(cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := b.cfg
			if got.Provider != tc.provider || got.BaseURL != tc.base || got.Model != tc.model || got.KeyEnv != tc.keyEv || got.APIKey != tc.key {
				t.Errorf("got provider %q base %q model %q keyEnv %q key %q; want %q %q %q %q %q",
					got.Provider, got.BaseURL, got.Model, got.KeyEnv, string(got.APIKey), tc.provider, tc.base, tc.model, tc.keyEv, string(tc.key))
			}
			c, err := FromEnv(tc.env)
			if err != nil || c == nil {
				t.Fatalf("FromEnv: %v, %v", c, err)
			}
		})
	}
}

func TestConfigFromEnvErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  func(string) string
		want []string
	}{
		{"unknown provider", env("AGENTHOOKS_LLM_PROVIDER", "gemini"), []string{"AGENTHOOKS_LLM_PROVIDER", `"gemini"`, "openai"}},
		{"not a URL", env("AGENTHOOKS_LLM_BASE_URL", "localhost:11434"), []string{"AGENTHOOKS_LLM_BASE_URL", "http"}},
		{"ftp", env("AGENTHOOKS_LLM_BASE_URL", "ftp://example.com"), []string{"AGENTHOOKS_LLM_BASE_URL"}},
		{"credentials in URL", env("AGENTHOOKS_LLM_BASE_URL", "https://user:sk-secret-0123456789@example.com/v1"),
			[]string{"AGENTHOOKS_LLM_BASE_URL", "credentials", "AGENTHOOKS_LLM_API_KEY_ENV"}},
		{"$NAME instead of name", env("AGENTHOOKS_LLM_API_KEY_ENV", "$OPENAI_API_KEY"), []string{"AGENTHOOKS_LLM_API_KEY_ENV", "not a variable name"}},
		{"key instead of name", env("AGENTHOOKS_LLM_API_KEY_ENV", "sk-secret-0123456789"), []string{"AGENTHOOKS_LLM_API_KEY_ENV", "not a variable name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromEnv(tc.env)
			if err == nil {
				t.Fatal("FromEnv succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "sk-secret-0123456789") {
				t.Errorf("error shows the secret: %q", err)
			}
		})
	}
}

func TestSecretNeverPrinted(t *testing.T) {
	const key = "sk-proj-abcdefghijklmnop"
	cfg := Config{Provider: OpenAI, APIKey: key}
	var logBuf bytes.Buffer
	slog.New(slog.NewTextHandler(&logBuf, nil)).Info("config", "key", cfg.APIKey, "cfg", cfg)
	js, err := json.Marshal(struct{ Key Secret }{cfg.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), fmt.Sprint(cfg.APIKey),
		fmt.Sprintf("%x", cfg.APIKey), fmt.Sprintf("%q", cfg.APIKey), string(js), logBuf.String(),
	} {
		if strings.Contains(s, key) || strings.Contains(s, fmt.Sprintf("%x", key)) {
			t.Errorf("the key shows in %q", s)
		}
	}
}
