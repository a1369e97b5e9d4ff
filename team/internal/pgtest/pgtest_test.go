package pgtest

import (
	"strings"
	"testing"
)

// TestNotInstalled: without PostgreSQL the error says what to install
// and the alternative, since the tests fail rather than skip.
func TestNotInstalled(t *testing.T) {
	old := debianBinDirs
	debianBinDirs = t.TempDir() + "/*/bin"
	defer func() { debianBinDirs = old }()
	t.Setenv("PATH", t.TempDir())
	_, err := binDir()
	if err == nil {
		t.Fatal("found PostgreSQL in an empty PATH")
	}
	for _, want := range []string{"PostgreSQL is not installed", "apt-get install postgresql", EnvURL} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}

func TestBinDirFound(t *testing.T) {
	d, err := binDir()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(d, "bin") {
		t.Errorf("binDir = %s", d)
	}
}

func TestURL(t *testing.T) {
	a, b := URL(t), URL(t)
	if a == b || !strings.HasPrefix(a, "postgres://") {
		t.Errorf("URLs %q and %q: want two different databases", a, b)
	}
}
