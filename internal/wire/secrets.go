package wire

import (
	"strings"

	"github.com/agenthooks/agenthooks/internal/settings"
)

// agenthooks' own secrets (docs/sandbox.md, "Secrets stay home"): the
// team token, and the model key of the variable AGENTHOOKS_LLM_API_KEY_ENV
// names (or that variable itself, when it holds the key rather than a
// name). Hooks never get them; a process of the engine binary that the
// client starts gets them through a pipe rather than its environment, so
// that /proc/PID/environ, which shows a process's initial environment to
// every process of the user's, never holds them.
const (
	keyEnvVar = settings.LLMAPIKeyEnv
	// SecretsFDEnv names the descriptor the secrets are read from.
	SecretsFDEnv = settings.SecretsFD
)

// SecretNames are the variables of env that hold agenthooks' secrets.
func SecretNames(env []string) []string {
	names := []string{settings.TeamToken}
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], keyEnvVar+"="); ok {
			switch v = strings.TrimSpace(v); {
			case settings.IsVarName(v):
				names = append(names, v)
			case v != "":
				names = append(names, keyEnvVar)
			}
			break
		}
	}
	return names
}

// SplitSecrets returns env without the secrets, and the secrets.
func SplitSecrets(env []string) (rest, secrets []string) {
	names := SecretNames(env)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		secret := false
		for _, n := range names {
			secret = secret || k == n
		}
		if secret {
			secrets = append(secrets, kv)
		} else {
			rest = append(rest, kv)
		}
	}
	return rest, secrets
}
