package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

// A hooks file that cannot be (wholly) loaded stands in for a failed
// fail-closed hook exactly where it may hold one.
func TestUnloadedStandIns(t *testing.T) {
	cases := []struct {
		name, file string
		dir        bool // the hooks file is a folder: it cannot be read
		want       []event.Step
	}{
		{name: "cannot be read", dir: true,
			want: []event.Step{event.BeforeShellExecution, event.BeforeMCPExecution, event.BeforeReadFile, event.BeforeTabFileRead, event.PreToolUse, event.SubagentStart, event.BeforeSubmitPrompt}},
		{name: "cut short, names a fail-closed shell hook",
			file: `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./x","failClosed":true}`,
			want: []event.Step{event.BeforeShellExecution}},
		{name: "cut short, nothing fail-closed",
			file: `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./x"}`},
		{name: "a broken fail-closed entry",
			file: `{"version":1,"hooks":{"beforeReadFile":[{"command":"./x","failClosed":true,"timeout":-3}]}}`,
			want: []event.Step{event.BeforeReadFile}},
		{name: "a broken entry beside a valid fail-closed one",
			file: `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./ok","failClosed":true},{"command":"./x","timeout":-3}]}}`},
		{name: "cut short, says failClosed false only",
			file: `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./x","failClosed":false}`},
		{name: "a wrong version stands in for nothing",
			file: `{"version":2,"hooks":{"beforeShellExecution":[{"command":"./x","failClosed":true}],"stop":[{"command":"./y"}]}}`},
		{name: "a broken entry beside a failClosed false one",
			file: `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./x","timeout":-3},{"command":"./y","failClosed":false}],"beforeSubmitPrompt":[{"command":"./z","failClosed":true}]}}`},
		{name: "valid", file: `{"version":1,"hooks":{"beforeShellExecution":[{"command":"./x","failClosed":true}]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := t.TempDir()
			path := UserFile(home)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			var err error
			if c.dir {
				err = os.Mkdir(path, 0o755)
			} else {
				err = os.WriteFile(path, []byte(c.file), 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
			set := Load(Locations{Settings: testSettings, Home: home, EnterpriseFile: filepath.Join(home, "none.json")}, nil)
			var got []event.Step
			for _, h := range set.Unloaded {
				if h.Type != TypeUnloaded || !h.FailClosed || h.File != path {
					t.Errorf("stand-in %+v", h)
				}
				got = append(got, h.Step)
			}
			if !sameSteps(got, c.want) {
				t.Errorf("stand-ins for %v, want %v", got, c.want)
			}
		})
	}
}

func sameSteps(a, b []event.Step) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[event.Step]bool{}
	for _, s := range a {
		seen[s] = true
	}
	for _, s := range b {
		if !seen[s] {
			return false
		}
	}
	return true
}
