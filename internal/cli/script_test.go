package cli_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/agenthooks/agenthooks/internal/cli"
	"github.com/agenthooks/agenthooks/internal/faultinject"
	"github.com/agenthooks/agenthooks/internal/needs"
)

// TestMain lets testscript run the test binary as the agenthooks command,
// so the scripts exercise the real entry point in a real process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"agenthooks": func() {
			// The fault-matrix scripts inject a panic at a named stage.
			if stage := os.Getenv("AGENTHOOKS_TEST_PANIC"); stage != "" {
				faultinject.Hook = func(at string) {
					if at == stage {
						panic("injected by AGENTHOOKS_TEST_PANIC at " + at)
					}
				}
			}
			os.Exit(cli.Main(os.Args[1:]))
		},
	})
}

// TestScripts runs the end-to-end scripts under testdata/script. Each gets
// its own HOME, config dir and enterprise path, so nothing on the machine
// leaks in.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:       filepath.Join("testdata", "script"),
		Setup:     isolate,
		Condition: installed,
	})
}

// installed answers a script's [needs:NAME] condition: whether the
// program NAME is on PATH. A script skips what needs a missing program on
// a machine with only Go; under needs.StrictEnv (CI) a missing one fails
// the script, as needs.Missing fails a test.
func installed(cond string) (bool, error) {
	name, ok := strings.CutPrefix(cond, "needs:")
	if !ok {
		return false, fmt.Errorf("unknown condition %q (use needs:PROGRAM)", cond)
	}
	if _, err := exec.LookPath(name); err == nil {
		return true, nil
	}
	if os.Getenv(needs.StrictEnv) != "" {
		return false, fmt.Errorf("%s is not installed (%s is set: a missing part fails)", name, needs.StrictEnv)
	}
	return false, nil
}

// isolate gives a script its own HOME, config, state and enterprise
// paths, so nothing on the machine leaks in or is touched.
func isolate(env *testscript.Env) error {
	work := env.WorkDir
	env.Setenv("HOME", filepath.Join(work, "home"))
	env.Setenv("XDG_CONFIG_HOME", filepath.Join(work, "xdg"))
	env.Setenv("AGENTHOOKS_CONFIG_DIR", filepath.Join(work, "config"))
	env.Setenv("AGENTHOOKS_ENTERPRISE_CONFIG", filepath.Join(work, "etc", "hooks.json"))
	env.Setenv("AGENTHOOKS_STATE_DIR", filepath.Join(work, "state"))
	// A race-enabled binary sleeps a second at exit (to catch late
	// reports) once SQLite has started its threads; with a process per
	// script line that adds up.
	env.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return os.MkdirAll(filepath.Join(work, "home"), 0o755)
}
