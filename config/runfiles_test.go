package config

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// TestRunFilePaths checks which words of a command name a path inside the
// workspace, and that the others (outside it, written by a redirection,
// unresolvable) do not.
func TestRunFilePaths(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX paths and sh commands")
	}
	root := t.TempDir()
	in := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	tests := []struct {
		command string
		want    []string
	}{
		{".cursor/hooks/check.sh", []string{in(".cursor/hooks/check.sh")}},
		{"./hooks/x.sh ask", []string{in("hooks/x.sh"), in("ask")}},
		{"bun run .cursor/hooks/t.ts", []string{in("bun"), in("run"), in(".cursor/hooks/t.ts"), in("bunfig.toml")}}, // bunfig.toml may preload code
		{"/usr/bin/python3 .cursor/hooks/g.py", []string{in(".cursor/hooks/g.py")}},
		{"agenthooks policy .cursor/policies/p.yaml", []string{in("agenthooks"), in("policy"), in(".cursor/policies/p.yaml")}},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/a.sh`, []string{in(".claude/hooks/a.sh")}},
		{"${CURSOR_PROJECT_DIR}/hooks/a.sh", []string{in("hooks/a.sh")}},
		{`'my hooks/a b.sh'`, []string{in("my hooks/a b.sh"), in("my"), in("hooks/a"), in("b.sh")}},
		{`tool --config=cfg/c.json`, []string{in("tool"), in("--config=cfg/c.json"), in("cfg/c.json")}},
		{"sh -c 'node hooks/a.js' > out.log 2>&1", []string{in("sh"), in("-c"), in("node hooks/a.js"), in("node"), in("hooks/a.js"), in("2"), in("1")}},
		{"check < rules.txt >> log.txt", []string{in("check"), in("rules.txt")}},
		{"cat $HOME/x ~/y ../outside.sh /etc/passwd # trailing.sh", []string{in("cat")}},
		{"a.sh; b.sh && c.sh | d.sh", []string{in("a.sh"), in("b.sh"), in("c.sh"), in("d.sh")}},
		{". x.sh", []string{in("x.sh")}}, // "." is the root itself
		{"tee >(./x.sh) &>all.log >|clobber.txt", []string{in("tee"), in("x.sh")}},
	}
	for _, tt := range tests {
		if got := RunFilePaths(tt.command, root, root, testSources.ProjectDirVars()); !slices.Equal(got, tt.want) {
			t.Errorf("RunFilePaths(%q)\n got %q\nwant %q", tt.command, got, tt.want)
		}
	}
	if got := RunFilePaths("x.sh", root, "", testSources.ProjectDirVars()); got != nil {
		t.Errorf("without a root: %q", got)
	}
}

// TestRunFilePathsWindowsSeparators checks that a PowerShell command's
// backslashes still name the file, whichever way the host reads them.
func TestRunFilePathsWindowsSeparators(t *testing.T) {
	root := t.TempDir()
	got := RunFilePaths(`& '.\hooks\x.ps1'`, root, root, testSources.ProjectDirVars())
	want := filepath.Join(root, `.\hooks\x.ps1`)
	if !slices.Contains(got, want) {
		t.Errorf("got %q, want it to hold %q", got, want)
	}
}

// TestRunFilePathsSymlinks: a link inside the root counts whatever it
// points to; a path outside the root counts when it resolves inside
// (the root opened through a symlink, the word naming the real path).
func TestRunFilePathsSymlinks(t *testing.T) {
	real := t.TempDir()
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "evil.sh"), "echo evil")
	writeFile(t, filepath.Join(real, "a.sh"), "echo a")
	link := filepath.Join(t.TempDir(), "ws")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	if err := os.Symlink(filepath.Join(outside, "evil.sh"), filepath.Join(real, "out.sh")); err != nil {
		t.Fatal(err)
	}
	realA := filepath.Join(real, "a.sh")
	got := RunFilePaths("out.sh "+realA, link, link, testSources.ProjectDirVars())
	want := []string{filepath.Join(link, "out.sh"), realA}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRunFiles checks what is hashed: a regular file (through a symlink
// too, by the target's content), the files of a folder the command
// names, and not a missing path.
func TestRunFiles(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "hooks", "a.sh"), "echo a")
	outside := filepath.Join(t.TempDir(), "t.sh")
	writeFile(t, outside, "echo t")
	symlinked := os.Symlink(outside, filepath.Join(root, "link.sh")) == nil
	h := &Hook{Type: TypeCommand, Command: "hooks/a.sh hooks missing link.sh", Dir: root, Root: root}
	got := map[string]RunFile{}
	for _, rf := range h.RunFiles() {
		if rf.Err != nil {
			t.Errorf("%s: %v", rf.Path, rf.Err)
		}
		got[filepath.Base(rf.Path)] = rf
	}
	if rf := got["a.sh"]; !rf.Present || rf.SHA256 != sha256.Sum256([]byte("echo a")) {
		t.Errorf("a.sh: %+v", rf)
	}
	if rf, ok := got["missing"]; !ok || rf.Present {
		t.Errorf("missing: %+v, %v; want listed, not present", rf, ok)
	}
	if _, ok := got["hooks"]; ok {
		t.Error("the folder is listed itself, rather than its files")
	}
	if rf := got["link.sh"]; symlinked && (!rf.Present || rf.SHA256 != sha256.Sum256([]byte("echo t"))) {
		t.Errorf("link.sh: %+v, want the target's hash", rf)
	}
	if rfs := (&Hook{Type: TypePrompt, Prompt: "hooks/a.sh", Dir: root, Root: root}).RunFiles(); rfs != nil {
		t.Errorf("a prompt hook names %+v", rfs)
	}
}

// TestRunFilesUnreadable: a file that exists but cannot be read is an
// error, not an absent file.
func TestRunFilesUnreadable(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs POSIX permissions enforced")
	}
	root := t.TempDir()
	p := filepath.Join(root, "a.sh")
	writeFile(t, p, "echo a")
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	rfs := (&Hook{Type: TypeCommand, Command: "a.sh", Dir: root, Root: root}).RunFiles()
	if len(rfs) != 1 || rfs[0].Err == nil || rfs[0].Present {
		t.Errorf("RunFiles = %+v, want an error", rfs)
	}
}

// FuzzRunFilePaths: any command splits without panicking, and every path
// it yields lies inside the root.
func FuzzRunFilePaths(f *testing.F) {
	for _, s := range []string{
		".cursor/hooks/check.sh", `sh -c 'a "b c" \'d'`, `"$CLAUDE_PROJECT_DIR"/x ${CURSOR_PROJECT_DIR`,
		"a\\\nb # c\nd", `x=1 y="$z" ~/q 2>&1 >>o <i`, `'unterminated`, `"unterminated \`, "$", "${}",
	} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, command string) {
		for _, p := range RunFilePaths(command, root, root, testSources.ProjectDirVars()) {
			if !within(root, p) {
				t.Errorf("RunFilePaths(%q) yields %q, outside %s", command, p, root)
			}
		}
	})
}

// A glob or a folder in a command is what it reaches: every file it
// matches or holds is pinned, so a file a pull request edits or adds
// there changes what trusting pinned.
func TestRunFilePathsGlobsAndFolders(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".cursor", "hooks", "pre-a.sh"), "a")
	writeFile(t, filepath.Join(root, ".cursor", "hooks", "pre-b.sh"), "b")
	writeFile(t, filepath.Join(root, ".cursor", "hooks", "other.sh"), "o")
	writeFile(t, filepath.Join(root, ".cursor", "guard", "__main__.py"), "m")
	writeFile(t, filepath.Join(root, ".cursor", "guard", "lib", "x.py"), "x")
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(r))
		}
		slices.Sort(out)
		return out
	}
	cases := map[string][]string{
		`for f in .cursor/hooks/pre-*.sh; do sh "$f" || exit 2; done`: {".cursor/hooks/pre-a.sh", ".cursor/hooks/pre-b.sh"},
		"python3 .cursor/guard":     {".cursor/guard/__main__.py", ".cursor/guard/lib/x.py"},
		"sh .cursor/hooks/new-*.sh": {".cursor/hooks/new-*.sh"},
	}
	for cmd, want := range cases {
		got := rel(RunFilePaths(cmd, root, root, testSources.ProjectDirVars()))
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: %q lacks %s", cmd, got, w)
			}
		}
		if slices.Contains(got, ".cursor/hooks/other.sh") || slices.Contains(got, ".cursor/guard") {
			t.Errorf("%s: %q holds what the command does not reach, or a folder", cmd, got)
		}
	}
}
