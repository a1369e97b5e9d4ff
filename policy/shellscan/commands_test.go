package shellscan

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// describe is a compact description of a Command for table tests:
// "name arg arg" for a static command, "?path arg" for a dynamic one,
// with "@via,via" and "#cwd" suffixes when they matter.
func describe(c Command) string {
	var b strings.Builder
	switch {
	case c.Dynamic:
		b.WriteString("?" + c.Path)
	case c.Name == "" && len(c.Reads) > 0:
		b.WriteString("< " + strings.Join(c.Reads, " "))
	default:
		b.WriteString(c.Name)
	}
	for i, a := range c.Args {
		if slices.Contains(c.DynamicArgs, i) {
			a = "?" + a
		}
		b.WriteString(" " + a)
	}
	return b.String()
}

func TestCommands(t *testing.T) {
	cases := []struct {
		line string
		want []string
	}{
		{"git push origin main", []string{"git push origin main"}},
		{"git  push\torigin   main", []string{"git push origin main"}},
		{"ls; pwd && id || whoami | wc -l", []string{"ls", "pwd", "id", "whoami", "wc -l"}},
		{"(cd x; make) & { echo a; echo b; }", []string{"cd x", "make", "echo a", "echo b"}},
		{"echo $(git rev-parse HEAD) `date`", []string{"git rev-parse HEAD", "date", "echo ?$(git rev-parse HEAD) ?`date`"}},
		{"diff <(sort a) <(sort b)", []string{"sort a", "sort b", "diff ?<(sort a) ?<(sort b)"}},
		{"/usr/bin/git status", []string{"git status"}},
		{"./node_modules/.bin/eslint .", []string{"eslint ."}},
		{`'git' "status" g\it`, []string{"git status git"}},
		{`$'git' $'\x70ush'`, []string{"git push"}},
		{"x=git; $x push", []string{"git push"}},
		{"x=git y=$x; $y push", []string{"git push"}},
		{`x="git push"; $x origin`, []string{"git push origin"}},
		{"x=git; x+=-lfs; $x pull", []string{"git-lfs pull"}},
		{"IFS=,; x=git,push; $x origin", []string{"git push origin"}},
		{"x=git; unset x; $x push", []string{"unset x", "push"}},
		{"$GIT push", []string{"?$GIT push"}},
		{"$(echo git) push", []string{"echo git", "?$(echo git) push"}},
		{"$HOME/bin/git push", []string{"git push"}},
		{`"${HOME}/bin/git" push`, []string{"git push"}},
		{"x=$(whoami); $x", []string{"whoami", "?$x"}},
		{"git push origin ${BR:-main}", []string{"git push origin ?${BR:-main}"}},
		{"b=main; git push origin ${b:-x}", []string{"git push origin main"}},
		{"echo {a,b}c", []string{"echo ac bc"}},
		{"ls *.go", []string{"ls ?*.go"}},
		{"[ -f x ] && [[ -d y ]]", []string{"[ -f x ]"}},
		{"a=1 b=2", nil},
		{"FOO=bar git push", []string{"git push"}},
		{"# only a comment", nil},
		{"echo 'a; git push'", []string{"echo a; git push"}},
		{"cat <<EOF\n$(git push)\nEOF", []string{"cat", "git push"}},
		{"cat <<'EOF'\n$(git push)\nEOF", []string{"cat"}},
		{"if git diff --quiet; then echo same; else git commit -am x; fi", []string{"git diff --quiet", "echo same", "git commit -am x"}},
		{"for f in a b; do rm $f; done", []string{"rm ?$f"}},
		{"while read l; do echo $l; done < f", []string{"read l", "echo ?$l", "< f"}},
		{"case $x in a) ls;; *) pwd;; esac", []string{"ls", "pwd"}},
		{"f() { git push; }; f", []string{"git push", "f"}},
		{"time git status", []string{"git status"}},
		{"! git diff --quiet", []string{"git diff --quiet"}},
		{"coproc git status", []string{"git status"}},
		{"export X=1; declare -r Y=2", []string{"export X=1", "declare -r Y=2"}},
		{"git push \"", []string{"?git push \""}},
	}
	for _, c := range cases {
		var got []string
		for _, cm := range Commands(c.line) {
			got = append(got, describe(cm))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Commands(%q)\n got %q\nwant %q", c.line, got, c.want)
		}
	}
}

// TestCommandsQuotedVariable: a quoted expansion is not split, so the
// program is "git push" (which does not exist), not git.
func TestCommandsQuotedVariable(t *testing.T) {
	got := Commands(`x="git push"; "$x" origin`)
	if len(got) != 1 || got[0].Name != "git push" || got[0].Dynamic {
		t.Fatalf("got %+v", got)
	}
}

func TestCommandsWrappers(t *testing.T) {
	cases := []struct {
		line string
		want string // the innermost command
		via  string
	}{
		{"command git push", "git push", "command"},
		{"command -p git push", "git push", "command"},
		{"builtin eval 'git push'", "git push", "builtin,eval"},
		{"exec -a name git push", "git push", "exec"},
		{"nohup git push &", "git push", "nohup"},
		{"nice -n 10 git push", "git push", "nice"},
		{"nice -10 git push", "git push", "nice"},
		{"time -p git push", "git push", ""},
		{"/usr/bin/time -p git push", "git push", "time"},
		{"timeout -s KILL 5s git push", "git push", "timeout"},
		{"timeout --kill-after=1 5 git push", "git push", "timeout"},
		{"stdbuf -o L git push", "git push", "stdbuf"},
		{"setsid -f git push", "git push", "setsid"},
		{"ionice -c 3 git push", "git push", "ionice"},
		{"sudo git push", "git push", "sudo"},
		{"sudo -u bob -H -- git push", "git push", "sudo"},
		{"sudo --user=bob FOO=1 git push", "git push", "sudo"},
		{"doas -u bob git push", "git push", "doas"},
		{"env git push", "git push", "env"},
		{"env -i -u HOME A=1 B=2 git push", "git push", "env"},
		{"env --chdir=/tmp git push", "git push", "env"},
		{"env -S 'git push'", "git push", "env"},
		{"sudo env nohup nice git push", "git push", "sudo,env,nohup,nice"},
		{"bash -c 'git push'", "git push", "bash -c"},
		{"bash -ec 'git push'", "git push", "bash -c"},
		{"bash -o pipefail -c 'git push'", "git push", "bash -c"},
		{"bash --norc -c 'git push'", "git push", "bash -c"},
		{"/bin/sh -c 'sh -c \"git push\"'", "git push", "sh -c,sh -c"},
		{"dash -c 'git push'", "git push", "dash -c"},
		{"fish -c 'git push'", "git push", "fish -c"},
		{"eval git push", "git push", "eval"},
		{"eval 'git' \"push\"", "git push", "eval"},
		{"xargs git push", "git push ?{input}", "xargs"},
		{"xargs -0 -n 1 git push", "git push ?{input}", "xargs"},
		{"xargs -I{} git push origin {}", "git push origin ?{}", "xargs"},
		{"find . -exec git push {} \\;", "git push ?{}", "find -exec"},
		{"find . -execdir rm -rf {} +", "rm -rf ?{}", "find -execdir"},
		{"su -c 'git push' bob", "git push", "su -c"},
		{"su - bob -c 'git push'", "git push", "su -c"},
		{"script -q -c 'git push' /dev/null", "git push", "script -c"},
		{"flock /tmp/l -c 'git push'", "git push", "flock -c"},
		{"flock -w 5 /tmp/l git push", "git push", "flock"},
		{"watch -n 2 git push", "git push", "watch"},
		{"watch -x git push", "git push", "watch"},
		{"trap 'git push' EXIT", "git push", "trap"},
		{"alias gp='git push'", "git push", "alias"},
		{"bash <<EOF\ngit push\nEOF", "git push", "bash <<"},
		{"bash <<< 'git push'", "git push", "bash <<"},
		{"busybox sh -c 'git push'", "git push", "busybox,sh -c"},
		{"chroot /srv git push", "git push", "chroot"},
		{"agenthooks -c 'git push'", "git push", "agenthooks -c"},
		{"AGENTHOOKS_HOOK=1 agenthooks -lc 'git push'", "git push", "agenthooks -c"},
		{"/usr/local/bin/agenthooks exec -- git push", "git push", "agenthooks exec"},
		{"agenthooks exec --ask=allow -w /tmp -q git push origin", "git push origin", "agenthooks exec"},
		{"env AGENTHOOKS_HOOK=x agenthooks exec 'git push'", "git push", "env,agenthooks exec"},
		{"agenthooks exec -c 'git push'", "git push", "agenthooks exec -c"},
		{"agenthooks exec -c -e 'git push'", "-e", "agenthooks exec -c"},
		{"agenthooks -c true -c 'git push'", "git push", "agenthooks -c"},
		{"agenthooks -lc true --command='git push'", "git push", "agenthooks -c"},
		{"agenthooks-engine -c 'git push'", "git push", "agenthooks -c"},
		{"agenthooks-engine exec git push", "git push", "agenthooks exec"},
		{"runuser -u root -- git push", "git push", "runuser"},
		{"strace -f -o /dev/null git push", "git push", "strace"},
		{"ltrace -o /tmp/x git push", "git push", "ltrace"},
		{"unshare -r git push", "git push", "unshare"},
		{"nsenter -t 1 -m git push", "git push", "nsenter"},
		{"systemd-run --user -p X=1 git push", "git push", "systemd-run"},
		{"sg wheel -c 'git push'", "git push", "sg"},
		{"sg wheel git push", "git push", "sg"},
		{"ssh -p 22 host git push", "git push", "ssh"},
		{"ssh host -p 22 git push", "git push", "ssh"},
		{"ssh host -- git push", "git push", "ssh"},
		{"strace --columns 40 git push", "git push", "strace"},
		{"nsenter -W /tmp -t 1 git push", "git push", "nsenter"},
		{"env --chd /tmp git push", "git push", "env"},
		{"tcsh -c 'git push'", "git push", "tcsh -c"},
	}
	for _, c := range cases {
		got := Commands(c.line)
		last := got[len(got)-1]
		if d := describe(last); d != c.want || strings.Join(last.Via, ",") != c.via {
			var all []string
			for _, g := range got {
				all = append(all, fmt.Sprintf("%s via %v", describe(g), g.Via))
			}
			t.Errorf("Commands(%q): last is %q via %v, want %q via %s\nall: %q", c.line, d, last.Via, c.want, c.via, all)
		}
	}
}

func TestCommandsNoRun(t *testing.T) {
	// These run nothing beyond themselves.
	for _, line := range []string{
		"command -v git", "sudo -l git push", "sudo -e /etc/hosts", "env", "sudo",
		"bash script.sh", "bash < script.sh", "timeout 5", "ionice -p 42 git push",
		"agenthooks run beforeShellExecution", "agenthooks policy git.yaml", "agenthooks exec", "agenthooks log -n 5",
	} {
		if got := Commands(line); len(got) != 1 {
			var all []string
			for _, g := range got {
				all = append(all, describe(g))
			}
			t.Errorf("Commands(%q) = %q, want only the command itself", line, all)
		}
	}
}

func TestCommandsDynamic(t *testing.T) {
	// Whatever cannot be read statically yields a dynamic command.
	for _, line := range []string{
		"$(echo git) push", "`echo git` push", "$CMD", "${CMD} x", "\"$@\"",
		"eval \"$x\"", "eval $(cat f)", "bash -c \"$x\"", "sh -c \"$(curl x)\"",
		"agenthooks -c \"$x\"", "agenthooks exec $flags git push", "agenthooks exec \"$x\"",
		"echo git push | bash", "curl x | sh -s", "bash $flags 'git push'",
		"git push \"", "f(){ x=git; }; x=ls; f; $x push", "x=ls; . ./env.sh; $x",
		"while true; do $x; x=git; done", "${!name} push", "$((1+2))",
		"/usr/bin/gi? push", "x=git; true && x=$(cat f); $x push", "x=git; if c; then x=$y; fi; $x",
		"IFS=$(printf ,); x=git,push; $x origin main",
		"x=git,push; . ./ifs.sh; $x origin main",
	} {
		got := Commands(line)
		if !slices.ContainsFunc(got, func(c Command) bool { return c.Dynamic }) {
			var all []string
			for _, g := range got {
				all = append(all, describe(g))
			}
			t.Errorf("Commands(%q) = %q, want a dynamic command", line, all)
		}
	}
}

func TestCommandsCwd(t *testing.T) {
	cases := []struct {
		line string
		cwd  string // of the last command
	}{
		{"rm -rf x", "."},
		{"cd sub && rm -rf x", "sub"},
		{"cd sub; cd ..; rm x", "."},
		{"cd /tmp; rm x", "/tmp"},
		{"cd; rm x", "~"},
		{"cd ~/src; rm x", "~/src"},
		{"cd -; rm x", ""},
		{"cd \"$D\"; rm x", ""},
		{"(cd /tmp); rm x", "."},
		{"true && cd /tmp; rm x", ""},
		{"pushd /tmp; rm x", "/tmp"},
		{"pushd /tmp; popd; rm x", ""},
		{"env -C /srv rm x", "/srv"},
		{"sudo -D /srv rm x", "/srv"},
		{"for d in a b; do cd $d; done; rm x", ""},
		{"f() { cd /; }; rm x", ""},
		{"sh -c 'cd /etc && rm x'", "/etc"},
	}
	for _, c := range cases {
		got := Commands(c.line)
		if last := got[len(got)-1]; last.Cwd != c.cwd {
			t.Errorf("Commands(%q): last cwd %q, want %q", c.line, last.Cwd, c.cwd)
		}
	}
}

func TestCommandsBounded(t *testing.T) {
	// Huge brace expansions, deep nesting and long lists stay bounded.
	got := Commands("echo {1..100000}")
	if len(got) != 1 || len(got[0].Args) > maxFields+1 {
		t.Errorf("brace expansion: %d commands, %d args", len(got), len(got[0].Args))
	}
	// Each eval parses its arguments again: one nesting level per eval.
	got = Commands(strings.Repeat("eval ", maxNesting+3) + "git push origin main")
	if !slices.ContainsFunc(got, func(c Command) bool { return c.Dynamic }) {
		t.Errorf("nesting past the limit should give a dynamic command")
	}
	many := strings.Repeat("true;", maxCommands+10)
	if got := Commands(many); len(got) > maxCommands+1 || !got[len(got)-1].Dynamic {
		t.Errorf("long list: %d commands, last dynamic %v", len(got), got[len(got)-1].Dynamic)
	}
}

func TestCommandsEnv(t *testing.T) {
	got := Commands("A=1 env B=2 git push")
	last := got[len(got)-1]
	if last.Env["A"] != "1" || last.Env["B"] != "2" {
		t.Errorf("env = %v", last.Env)
	}
	if got[0].Env["A"] != "1" || got[0].Env["B"] != "" {
		t.Errorf("outer env = %v", got[0].Env)
	}
}

func FuzzCommands(f *testing.F) {
	for _, s := range []string{"git push origin main", "x=git; $x push", "bash -c 'eval \"$(cat f)\"'", "a <<EOF\n$(b)\nEOF", "f(){ g; }; f | h &"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range Commands(s) {
			if !c.Dynamic && c.Name == "" {
				t.Fatalf("static command without a name in %q: %+v", s, c)
			}
		}
	})
}

// TestPlainWordsFastPath: lines the fast path takes give exactly what
// the parser gives.
func TestPlainWordsFastPath(t *testing.T) {
	for _, line := range []string{
		"git push origin main", "  git\tpush  origin main  ", "sudo -u bob git push", "env A=1 git push",
		"timeout 5 git push", "/usr/bin/git -C repo push origin HEAD:main", "xargs git push",
		"bash -c ls", "git log --grep=push", "cd sub", "eval git push", "rm -rf /tmp/x",
		"curl https://a.example/x?y", "ls", "git commit -m wip",
	} {
		fast := Commands(line)
		w := &walker{visited: map[*syntax.CallExpr]bool{}}
		w.parseAndWalk(line, newState("."), nil, 0)
		if _, ok := plainWords(line); ok != !strings.ContainsAny(line, "?") {
			t.Errorf("plainWords(%q) = %v", line, ok)
		}
		if fmt.Sprintf("%+v", fast) != fmt.Sprintf("%+v", w.out) {
			t.Errorf("%q:\nfast   %+v\nparsed %+v", line, fast, w.out)
		}
	}
	for _, line := range []string{"A=1 git push", "if x", "time git", "! git", "git 'x'", "git $x", "git *", "a;b", "a # c", "~/x", "git {a,b}", "a\nb", "[[ x ]]", "git\\ x"} {
		if _, ok := plainWords(line); ok {
			t.Errorf("plainWords(%q) took a line that needs the parser", line)
		}
	}
}

// A line nested too deep for the parser to read safely is one dynamic
// command, read in linear time: the parser's recursion would overflow
// its stack, or take time and memory quadratic in the depth.
func TestCommandsTooDeep(t *testing.T) {
	for _, line := range []string{
		"touch x\n" + strings.Repeat("(", 200000) + "true" + strings.Repeat(")", 200000),
		"touch x\n" + strings.Repeat("$(", 50000) + "true" + strings.Repeat(")", 50000),
	} {
		got := Commands(line)
		if len(got) != 1 || !got[0].Dynamic {
			t.Errorf("a line nested %d deep: %d commands, dynamic %v", bracketDepth(line), len(got), len(got) > 0 && got[0].Dynamic)
		}
	}
	if got := Commands("echo $(( (1+2) * (3+4) ))"); len(got) != 1 || got[0].Dynamic {
		t.Errorf("an ordinary line: %+v", got)
	}
}

// What the shell itself reads through a redirection with no command of
// its own is an entry with no name and the file in Reads.
func TestCommandsShellReads(t *testing.T) {
	for line, want := range map[string]string{
		`echo "$(< .env)"`:                        ".env",
		`while read l; do echo "$l"; done < .env`: ".env",
		`{ cat; } < x.txt`:                        "x.txt",
	} {
		found := false
		for _, c := range Commands(line) {
			found = found || c.Name == "" && !c.Dynamic && slices.Contains(c.Reads, want)
		}
		if !found {
			t.Errorf("%s: no entry reads %s: %+v", line, want, Commands(line))
		}
	}
	for _, c := range Commands("cat < a.txt") {
		if c.Name == "" {
			t.Errorf("a simple command's redirection made an entry of its own: %+v", c)
		}
	}
}
