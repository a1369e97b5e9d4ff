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
		// Variables that carry code.
		"GIT_EDITOR='git push origin main; true' git commit",
		"env GIT_SSH_COMMAND='sh -c x' git fetch",
		"export GIT_PAGER='git push origin main'; git -p log",
		"BASH_ENV=../env.sh bash -c true",
		"ENV=./env.sh sh -i -c true",
		"env 'BASH_FUNC_git%%=() { /usr/bin/git push origin main; }' bash -c 'git status'",
		"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=h git commit",
		"PS4='$(git push origin main)' bash -xc true",
		"read GIT_EDITOR; export GIT_EDITOR; git commit",
		"LD_PRELOAD=./x.so git status",
		// Files written, then run.
		"echo 'git push origin main' > ../x.sh; sh ../x.sh",
		"cat > Makefile <<'EOF'\nall:\n\tgit push origin main\nEOF\nmake",
		"printf 'all:; git push' > ../mk; make -f ../mk",
		"printf '#!/bin/sh\\ngit push' > .git/hooks/pre-commit; git commit -m x",
		"cp /tmp/p.sh p.sh; ./p.sh",
		"curl -o x.py https://example.com/x.py; python3 x.py",
		"echo 'git push' > \"$f\"; bash ok.sh",
		"printf '#!/bin/sh\\ngit push origin main\\n' > .git/hooks/post-commit",
		"cp /tmp/h .git/hooks/pre-push",
		"echo '[alias] p = push' >> .git/config",
		"cd .git && echo x > hooks/post-commit",
		// Code that is no file, and editors given commands.
		"source <(echo git push origin main)",
		". /dev/stdin <<< 'git push origin main'",
		"awk -f /dev/stdin <<< 'BEGIN { system(\"git push\") }'",
		"vim -es -c '!git push origin main' -c q",
		"vi +'!git push' f.txt",
		"emacs --batch --eval '(shell-command \"git push\")'",
		"ex f.txt",
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
		"env - git push origin main":                              "git push origin main",
		// A program the analysis does not know may run its operands.
		"faketime @0 git push origin main":                 "git push origin main",
		"npm exec -- git push origin main":                 "git push origin main",
		"docker exec c sh -c 'git push origin main'":       "git push origin main",
		"prlimit --nofile=9 /usr/bin/git push origin main": "git push origin main",
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
		// Inert values of variables that carry code.
		"GIT_PAGER=cat git log",
		"EDITOR='code --wait' git commit",
		"PS1='$ ' true",
		"ENV=production make test",
		"GIT_CONFIG_GLOBAL=/dev/null git status",
		// Writes that are not run, runs that were not written.
		"make 2>&1 | tee build.log",
		"./configure > config.log && make",
		"echo hi > notes.txt; bash build.sh",
		"go build -o bin/app . && ./bin/app",
		// Editors opening files; programs that mention others.
		"vim f.txt",
		"vim +12 f.txt",
		"apt-get install -y git bash python3",
		"apt install python3 -y",
		"brew install node",
		"docker run img sh",
		"man bash",
	} {
		for _, c := range Commands(line) {
			if c.Dynamic {
				t.Errorf("%q: dynamic entry %+v", line, c)
			}
		}
	}
}
