package settings

import (
	"slices"
	"strings"
	"testing"
)

func TestSeparating(t *testing.T) {
	env := []string{
		"HOME=/h", "PATH=/bin", "GIT_CONFIG_GLOBAL=/g", "AGENTHOOKS_STATE_DIR=/s", "AGENTHOOKS_ENGINE_IDLE=1m",
		"AGENTHOOKS_SOMETHING_NEW=1", "AGENTHOOKS_LLM_API_KEY_ENV=MY_KEY", "MY_KEY=k", "OTHER=x", "XDG_CONFIG_HOME=/c",
	}
	want := []string{"AGENTHOOKS_LLM_API_KEY_ENV=MY_KEY", "AGENTHOOKS_SOMETHING_NEW=1", "AGENTHOOKS_STATE_DIR=/s", "HOME=/h", "MY_KEY=k", "XDG_CONFIG_HOME=/c"}
	if got := Separating(env); !slices.Equal(got, want) {
		t.Errorf("Separating = %q, want %q", got, want)
	}
}

// The variables that choose git's configuration are one list, which
// policies and the engine's socket both read.
func TestGitVar(t *testing.T) {
	for _, name := range []string{"HOME", "XDG_CONFIG_HOME", "PATH", "USERPROFILE", "HOMEDRIVE", "HOMEPATH", "GIT_CONFIG_GLOBAL", "GIT_DIR"} {
		if !GitVar(name) {
			t.Errorf("%s does not choose git's configuration", name)
		}
	}
	for _, name := range []string{"AGENTHOOKS_STATE_DIR", "TMPDIR", "GITHUB_TOKEN", "OPENAI_API_KEY"} {
		if GitVar(name) {
			t.Errorf("%s chooses git's configuration", name)
		}
	}
}

func TestInEffect(t *testing.T) {
	got := map[string]Entry{}
	for _, e := range InEffect([]string{"AGENTHOOKS_TEAM_TOKEN=secret", "OPENAI_API_KEY=sk", "GIT_DIR=/r/.git", "HOME=/h"}) {
		got[e.Name] = e
	}
	for name, want := range map[string]string{"AGENTHOOKS_TEAM_TOKEN": "(set)", "OPENAI_API_KEY": "(set)", "GIT_DIR": "/r/.git", "HOME": "/h"} {
		if e := got[name]; !e.Set || e.Value != want {
			t.Errorf("%s: %+v, want %q", name, e, want)
		}
	}
	if e := got[StateDir]; e.Set || e.Meaning == "" || e.Default == "" || !e.Separates {
		t.Errorf("%s: %+v", StateDir, e)
	}
	for _, v := range All {
		if v.Meaning == "" || v.Default == "" || strings.ContainsAny(v.Name, " =") {
			t.Errorf("%+v: every variable says what it changes and its default", v)
		}
	}
}

func TestHome(t *testing.T) {
	get := Getenv([]string{"HOME=/h", "USERPROFILE=/u", "home=/p"})
	h, err := Home(get)
	if err != nil || h == "" {
		t.Errorf("Home = %q, %v", h, err)
	}
	if _, err := Home(Getenv(nil)); err == nil {
		t.Error("no home, no error")
	}
}
