package session

import (
	"slices"
	"strings"

	"github.com/agenthooks/agenthooks/config"
)

// A sessionStart hook's env reaches the later hooks of its conversation
// and the agent's own shell. Some variables do not merely pass a value:
// they make the dynamic loader, a shell or an interpreter load code, or
// make a program start another one, whatever program is then run. Those
// are taken only from enterprise and team hooks (see docs/semantics.md).
// Names are compared upper-cased on every system: refusing `ld_preload`
// where it means nothing costs nothing, and on Windows it is LD_PRELOAD.

// loaderNames are refused below team, by exact name.
var loaderNames = map[string]bool{
	// Shells: startup files, options, exported functions' parsing.
	"BASH_ENV": true, "ENV": true, "ZDOTDIR": true, "SHELLOPTS": true, "BASHOPTS": true,
	"IFS": true, "PROMPT_COMMAND": true, "PS1": true, "PS2": true, "PS4": true,
	"CDPATH": true, "SHELL": true, "INPUTRC": true,
	// Where programs read their configuration (git's core.fsmonitor,
	// core.pager and the like run programs).
	"HOME": true, "USERPROFILE": true, "XDG_CONFIG_HOME": true, "XDG_CONFIG_DIRS": true,
	// glibc's iconv modules.
	"GCONV_PATH": true,
	// Node.
	"NODE_OPTIONS": true, "NODE_PATH": true,
	// Perl.
	"PERLLIB": true,
	// Ruby gems.
	"GEM_HOME": true, "GEM_PATH": true,
	// Java and its build tools.
	"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true,
	"JAVA_HOME": true, "CLASSPATH": true, "MAVEN_OPTS": true, "GRADLE_OPTS": true,
	// PHP.
	"PHPRC": true, "PHP_INI_SCAN_DIR": true,
	// Go (-toolexec, toolchain downloads) and Rust.
	"GOFLAGS": true, "GOTOOLCHAIN": true, "GOENV": true,
	"RUSTC_WRAPPER": true, "RUSTC_WORKSPACE_WRAPPER": true,
	// Programs that other programs start.
	"EDITOR": true, "VISUAL": true, "PAGER": true, "MANPAGER": true, "BROWSER": true,
	"LESSOPEN": true, "LESSCLOSE": true, "SSH_ASKPASS": true, "SUDO_ASKPASS": true,
	// Windows: which files execute, the command interpreter, PowerShell's
	// auto-loaded modules.
	"PATHEXT": true, "COMSPEC": true, "PSMODULEPATH": true,
}

// loaderPrefixes are refused below team, by prefix.
var loaderPrefixes = []string{
	"LD_",        // LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, …
	"DYLD_",      // macOS's loader
	"BASH_FUNC_", // exported bash functions, which replace commands
	"GIT_",       // GIT_SSH_COMMAND, GIT_EXEC_PATH, GIT_CONFIG_*, GIT_DIR, …
	"PYTHON",     // PYTHONPATH, PYTHONSTARTUP, PYTHONHOME, PYTHONUSERBASE, PYTHONWARNINGS, …
	"PERL5",      // PERL5LIB, PERL5OPT, PERL5DB
	"RUBY",       // RUBYOPT, RUBYLIB, …
	"NPM_CONFIG_",
	"LUA_", // LUA_INIT runs code
	"OPENSSL_",
	"DOTNET_", // DOTNET_STARTUP_HOOKS, …
	"CORECLR_",
	"COR_", // COR_PROFILER, COR_ENABLE_PROFILING
}

// reservedPrefixes, and the variables the agents set for their hooks
// (config.Sources.AgentVars), are set by agenthooks or the agent for every hook,
// or configure agenthooks itself: refused from every source. A session
// that set AGENTHOOKS_ENTERPRISE_CONFIG would otherwise reach the agent's
// shell, and an agenthooks started there.
var reservedPrefixes = []string{"AGENTHOOKS_", "CURSOR_"}

// Refused says why a sessionStart variable set by a hook of source src
// is refused, or "" when it is taken; known are the host's sources, whose
// agents' variables are refused from every source. The engine screens
// every sessionStart answer with it, and EnvFor and the engine's
// environment apply it again to what a session stored before a refusal
// existed.
func Refused(name string, src config.Source, known config.Sources) string {
	up := strings.ToUpper(name)
	if slices.Contains(known.AgentVars(), up) || hasAnyPrefix(up, reservedPrefixes) {
		return "reserved: agenthooks and the agent set it"
	}
	if src == config.Enterprise || src == config.Team {
		return ""
	}
	if loaderNames[up] || hasAnyPrefix(up, loaderPrefixes) {
		return "it makes programs load or run other code; only enterprise and team hooks may set it"
	}
	return ""
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
