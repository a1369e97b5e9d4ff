package llm

import "testing"

func TestConfiguredKeyEnv(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"", ""},
		{"  MY_KEY ", "MY_KEY"},
		{"OPENAI_API_KEY", "OPENAI_API_KEY"},
		{"sk-abc-123", ""}, // the key itself, pasted: not a name to withhold
		{"$MY_KEY", ""},
	} {
		env := map[string]string{EnvAPIKeyEnv: c.set}
		if got := ConfiguredKeyEnv(func(k string) string { return env[k] }); got != c.want {
			t.Errorf("%s=%q: ConfiguredKeyEnv = %q, want %q", EnvAPIKeyEnv, c.set, got, c.want)
		}
	}
}
