//go:build unix

package proc

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "code.sh", "#!/bin/sh\nexit \"$1\"\n", 0o755)
	tests := []struct {
		command    string
		wantCode   int
		wantSignal string
		wantDirect bool
	}{
		{"exit 0", 0, "", false},
		{"exit 1", 1, "", false},
		{"exit 2", 2, "", false},
		{"exit 137", 137, "", false},
		{"./code.sh 0", 0, "", true},
		{"./code.sh 1", 1, "", true},
		{"./code.sh 2", 2, "", true},
		{"./code.sh 137", 137, "", true},
		{"kill -KILL $$", -1, "killed", false},
		{"kill -TERM $$", -1, "terminated", false},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			res, _ := run(t, Spec{Command: tt.command, Dir: dir})
			if res.ExitCode != tt.wantCode || res.Signal != tt.wantSignal || res.Direct != tt.wantDirect {
				t.Errorf("got code %d signal %q direct %v, want %d %q %v (stderr %q)",
					res.ExitCode, res.Signal, res.Direct, tt.wantCode, tt.wantSignal, tt.wantDirect, res.Stderr)
			}
			if res.StartErr != nil || res.TimedOut || res.Canceled || res.Overflow != "" {
				t.Errorf("unexpected failure: %+v", res)
			}
			if res.Duration <= 0 {
				t.Errorf("Duration = %v", res.Duration)
			}
		})
	}
}

func TestOutputCapture(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "both.sh", "#!/bin/sh\nprintf 'to stdout'\nprintf 'to stderr' >&2\n", 0o755)
	for _, command := range []string{"./both.sh", "printf 'to stdout'; printf 'to stderr' >&2"} {
		res, _ := run(t, Spec{Command: command, Dir: dir})
		if string(res.Stdout) != "to stdout" || string(res.Stderr) != "to stderr" {
			t.Errorf("%s: stdout %q stderr %q", command, res.Stdout, res.Stderr)
		}
	}
}

func TestDirAndEnv(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "HOOK_VAR=from the caller", "PWD=/somewhere/else")
	tests := []struct {
		command    string
		want       string
		wantDirect bool
	}{
		{"pwd", link + "\n", false}, // sh keeps the valid logical PWD it is given
		{"/bin/pwd", physical(t, real) + "\n", true},
		{"printenv HOOK_VAR", "from the caller\n", true},
		{`echo "$HOOK_VAR"`, "from the caller\n", false},
		// Direct or through sh, the child sees PWD naming Dir (the logical
		// path, which a shell accepts as valid), never the caller's stale PWD.
		{"printenv PWD", link + "\n", true},
		{"printenv PWD;", link + "\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			res, _ := run(t, Spec{Command: tt.command, Dir: link, Env: env})
			if string(res.Stdout) != tt.want || res.Direct != tt.wantDirect {
				t.Errorf("stdout %q direct %v, want %q %v (stderr %q)", res.Stdout, res.Direct, tt.want, tt.wantDirect, res.Stderr)
			}
		})
	}
}

// TestPWDKeptWhenValid: a PWD that already names the directory (a logical
// path through a symlink) is passed on unchanged, as sh does.
func TestPWDKeptWhenValid(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PWD="+link)
	for _, command := range []string{"printenv PWD", "printenv PWD;"} {
		res, _ := run(t, Spec{Command: command, Dir: link, Env: env})
		if string(res.Stdout) != link+"\n" {
			t.Errorf("%s: PWD %q, want %q", command, res.Stdout, link)
		}
	}
}

func TestDirectOrShell(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(t.TempDir(), "bin")
	writeFile(t, dir, "x.sh", "#!/bin/sh\necho \"x $*\"\n", 0o755)
	writeFile(t, dir, "sub/x.sh", "#!/bin/sh\necho \"sub $*\"\n", 0o755)
	writeFile(t, dir, "noshebang.sh", "echo \"no shebang $*\"\n", 0o755)
	writeFile(t, dir, "noexec.sh", "#!/bin/sh\necho never\n", 0o644)
	writeFile(t, bin, "mytool", "#!/bin/sh\necho \"mytool $*\"\n", 0o755)
	withBin := []string{"PATH=" + bin + ":/usr/bin:/bin"}
	emptyPath := []string{"PATH=" + t.TempDir()}

	tests := []struct {
		name       string
		command    string
		env        []string
		wantOut    string
		wantCode   int
		wantDirect bool
	}{
		{"relative script", "./x.sh a b", nil, "x a b\n", 0, true},
		{"script in a sub folder", "sub/x.sh c", nil, "sub c\n", 0, true},
		{"absolute path", filepath.Join(dir, "x.sh"), nil, "x \n", 0, true},
		{"found in the hook's PATH", "mytool --flag=1", withBin, "mytool --flag=1\n", 0, true},
		{"not in the caller's PATH", "mytool", nil, "", 127, false},
		{"script without shebang", "./noshebang.sh q", nil, "no shebang q\n", 0, false},
		{"not executable", "./noexec.sh", nil, "", 126, false},
		{"missing script", "./missing.sh", nil, "", 127, false},
		{"missing command", "no-such-command-xyz", nil, "", 127, false},
		{"PATH without the command", "cat", emptyPath, "", 127, false},
		{"builtin", "echo hi", nil, "hi\n", 0, false},
		{"shell syntax", "./x.sh | cat", nil, "x \n", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, _ := run(t, Spec{Command: tt.command, Dir: dir, Env: tt.env})
			if string(res.Stdout) != tt.wantOut || res.ExitCode != tt.wantCode || res.Direct != tt.wantDirect {
				t.Errorf("stdout %q code %d direct %v, want %q %d %v (stderr %q)",
					res.Stdout, res.ExitCode, res.Direct, tt.wantOut, tt.wantCode, tt.wantDirect, res.Stderr)
			}
			if res.StartErr != nil {
				t.Errorf("StartErr %v", res.StartErr)
			}
		})
	}
}

// TestFailureMessagesAreSh: when direct exec cannot run the command, the
// hook sees exactly what sh would have said.
func TestFailureMessagesAreSh(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "noexec.sh", "#!/bin/sh\n", 0o644)
	env := []string{"PATH=" + t.TempDir()}
	for _, command := range []string{"no-such-command-xyz arg", "./missing.sh", "./noexec.sh", "cat"} {
		cmd := exec.Command("/bin/sh", "-c", command)
		cmd.Dir, cmd.Env = dir, env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("sh -c %q: %v", command, err)
		}
		res, _ := run(t, Spec{Command: command, Dir: dir, Env: env})
		if res.ExitCode != ee.ExitCode() || !bytes.Equal(res.Stderr, stderr.Bytes()) {
			t.Errorf("%s: got %d %q, sh gives %d %q", command, res.ExitCode, res.Stderr, ee.ExitCode(), stderr.Bytes())
		}
		if len(res.Stderr) == 0 {
			t.Errorf("%s: no message on stderr", command)
		}
	}
}

// TestRelativeDir: a relative Dir and a relative script inside it are both
// resolved as sh would, from the caller's working directory.
func TestRelativeDir(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "hooks/x.sh", "#!/bin/sh\npwd\n", 0o755)
	t.Chdir(root)
	res, _ := run(t, Spec{Command: "./x.sh", Dir: "hooks"})
	if want := physical(t, filepath.Join(root, "hooks")) + "\n"; string(res.Stdout) != want || !res.Direct {
		t.Errorf("stdout %q direct %v, want %q direct (stderr %q)", res.Stdout, res.Direct, want, res.Stderr)
	}
}

func TestStartErrors(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "file", "", 0o644)
	for _, bad := range []string{filepath.Join(dir, "missing"), file} {
		res, _ := run(t, Spec{Command: "true", Dir: bad})
		if res.StartErr == nil || res.ExitCode != -1 || res.Direct {
			t.Errorf("Dir %s: %+v, want a StartErr and exit -1", bad, res)
		}
	}
}
