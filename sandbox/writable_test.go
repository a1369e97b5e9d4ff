package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteGrant(t *testing.T) {
	ws, extra, outside := t.TempDir(), t.TempDir(), t.TempDir()
	p := Policy{Configured: true, Type: WorkspaceReadwrite, Roots: []string{ws}, ReadwritePaths: []Grant{{Path: extra}}}
	tmpHome := filepath.Join(os.TempDir(), "home-x", ".config", "agenthooks")
	for _, c := range []struct {
		p     Policy
		path  string
		grant string
	}{
		{p, filepath.Join(ws, "a", "b"), ws},
		{p, filepath.Join(extra, "trust.json"), extra},
		{p, tmpHome, os.TempDir()},
		{withTmp(p, true), tmpHome, ""},
		{withTmp(p, true), outside + "-not-below", ""},
		{Policy{Configured: true, Type: InsecureNone, Roots: []string{ws}}, ws, ""},
	} {
		got := c.p.WriteGrant(c.path)
		if resolve(got) != resolve(c.grant) || (got == "") != (c.grant == "") {
			t.Errorf("WriteGrant(%s) = %q, want %q", c.path, got, c.grant)
		}
	}
}

func withTmp(p Policy, disable bool) Policy {
	p.DisableTmpWrite = disable
	return p
}
