package shellscan

import (
	"testing"
)

// TestCommandsSound: each construct docs/policies.md (Soundness) decides
// "dynamic" gives a dynamic entry, and each it models exactly gives the
// command it runs.
func TestCommandsSound(t *testing.T) {
	dynamic := []string{
		"alias g=git; g push origin main",
		"alias g=git\ng push origin main",
		"shopt -s expand_aliases",
		"x=; : ${x:=git}; $x push origin main",
		"x=; : ${x=git}; $x push origin main",
		"sh /dev/fd/3 3<<'EOF'\ngit push\nEOF",
		"bash /proc/self/fd/5",
		"bash <(echo git push origin main)",
		"bash \"$script\"",
		"echo 'git push' | sh /dev/stdin",
		"pwsh -c 'git push origin main'",
		"pwsh.exe -Command 'git push origin main'",
		"powershell -EncodedCommand ZwBpAHQA",
		"cmd /c git push origin main",
		"cmd.exe /c git push origin main",
		"nu -c 'git push origin main'",
		"fish -c 'git push origin main'",
		"xonsh -c 'git push origin main'",
		"elvish -c 'git push origin main'",
		"tcsh -c 'git push origin main'",
		"python3 -c 'import os; os.system(\"git push\")'",
		"python3.12 -Ic 'print(1)'",
		"python3 - <<'EOF'\nprint(1)\nEOF",
		"python3",
		"python3 -W ignore -c 'print(1)'",
		"node -e 'require(\"child_process\").execSync(\"git push\")'",
		"node --eval='1'",
		"node -p 1",
		"deno eval 'Deno.exit()'",
		"perl -ne 'system(\"git push\")' f",
		"perl -E 'say 1'",
		"ruby -e 'system(\"git push\")'",
		"php -r 'system(\"git push\");'",
		"lua -e 'os.execute(\"git push\")'",
		"awk 'BEGIN { system(\"git push\") }'",
		"awk '{ print | \"sh\" }' f",
		"gawk 'BEGIN { \"git push\" | getline x }'",
		"env -i PATH=$PATH git push",
		"sed 'e git push origin main' f",
		"sed -n '1e git push origin main' f",
		"sed 's/x/git push origin main/e' f",
		"sed -e 's|x|y|ge' f",
		"sed -E -e '/a/,/b/ e date' f",
		"sed \"$script\" f",
		"parallel git push origin ::: main",
		"tmux new-session -d 'git push origin main'",
		"echo 'git push origin main' | at now",
	}
	for _, line := range dynamic {
		found := false
		for _, c := range Commands(line) {
			found = found || c.Dynamic
		}
		if !found {
			t.Errorf("%q: no dynamic entry: %v", line, Commands(line))
		}
	}
	exact := map[string]string{
		"env -vS'git push origin main'":                           "git push origin main",
		"env -iS 'git push origin main'":                          "git push origin main",
		"env -uHOME -S'git push origin main'":                     "git push origin main",
		"sh /dev/stdin <<'EOF'\ngit push origin main\nEOF":        "git push origin main",
		"bash /proc/self/fd/0 <<'EOF'\ngit push origin main\nEOF": "git push origin main",
		"f() { git \"$@\"; }; f push origin main":                 "git push origin main",
		"f() { shift; git \"$@\"; }; f x push origin main":        "git push origin main",
		"f() { git $1 origin $2; }; f push main":                  "git push origin main",
		"env -i PATH=\"$PATH\" git push origin main":              "git push origin main",
	}
	for line, want := range exact {
		found := false
		for _, c := range Commands(line) {
			found = found || !c.Dynamic && describe(c) == want
		}
		if !found {
			t.Errorf("%q: no entry %q: %v", line, want, Commands(line))
		}
	}
	// Programs and scripts that run nothing the line does not show stay
	// static: no dynamic entry.
	for _, line := range []string{
		"python3 script.py --flag",
		"python3 -m pytest -q",
		"node build.js",
		"perl script.pl",
		"awk '{ print $1 }' f.txt",
		"awk -F: '{ print $1 }' /etc/passwd",
		"bash build.sh",
		"python3 --version",
		"alias",
		"f() { echo \"$1\"; }; f hi",
		"sed -i 's/foo/bar/g' f.txt",
		"sed -n '/^x/p' f",
		"sed -e 's/a/b/' -e 's/c/d/2' f",
		"sed 's/echo/print/' f",
		"sed -f script.sed f",
		"sed --sandbox 'e date' f",
		"sed '/start/,/end/d' f",
		"sed 'y/abc/xyz/' f",
	} {
		for _, c := range Commands(line) {
			if c.Dynamic {
				t.Errorf("%q: dynamic entry %+v", line, c)
			}
		}
	}
}
