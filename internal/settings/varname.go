package settings

// IsVarName reports whether s is a portable environment variable name
// ([A-Za-z_][A-Za-z0-9_]*). A setting that names a variable
// (AGENTHOOKS_LLM_API_KEY_ENV) holding anything else most likely holds
// the secret itself, pasted where its variable's name belongs.
func IsVarName(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', r >= 'A' && r <= 'Z', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}
