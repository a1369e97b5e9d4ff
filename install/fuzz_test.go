package install_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenthooks/agenthooks/install"
	"github.com/tailscale/hujson"
)

// FuzzRoundTrip: for any settings file the agent could read, install then
// uninstall gives back the same bytes, and a second install changes
// nothing.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range settingsFixtures {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, content string, which uint8) {
		if v, err := hujson.Parse([]byte(content)); err != nil {
			return
		} else if _, ok := v.Value.(*hujson.Object); !ok {
			return
		}
		settings := []string{"claude", "codex", "gemini"}
		dir := t.TempDir()
		o := install.Options{Agent: settings[int(which)%len(settings)], Scope: install.Project, Root: dir, Binary: bin}
		path, _ := wirings.Path(o)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wirings.Install(o); err != nil {
			return // e.g. "hooks" is not an object: refused, file untouched
		}
		if ch, err := wirings.Install(o); err != nil || ch.Action != "unchanged" {
			t.Fatalf("second install: %+v, %v", ch, err)
		}
		installedData, _ := os.ReadFile(path)
		if _, err := hujson.Parse(installedData); err != nil {
			t.Fatalf("install wrote invalid JSON: %v\n%s", err, installedData)
		}
		if _, err := wirings.Uninstall(o); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if !bytes.Equal(got, []byte(content)) {
			t.Fatalf("round trip:\n got  %q\n want %q", got, content)
		}
	})
}
