package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRunFileFollow: what a file the hook runs loads in turn is pinned
// where the reading is exact, and where it is not, the file's folder is
// pinned with a note saying so; data a script merely reads is not.
func TestRunFileFollow(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		// Node: literal specifiers, followed; code in comments, strings
		// and regular expressions is not code.
		"n/guard.js": "// require(x) in a comment loads nothing\nif (require.main === module) {}\nconst a = require('./a');\nconst q = \"require(y)\";\nconst re = /'/;\nimport('./c.mjs');\nimport d from \"./d\";\n" +
			"export * from './e.cjs';\nconst t = `plain ${1 + 1}`;\nrequire('fs'); require('node:path');\n",
		"n/a.js":        "module.exports = require('../common/b.json');",
		"common/b.json": "{}",
		"n/c.mjs":       "export default 1",
		"n/d/index.js":  "module.exports = require('./deep')",
		"n/d/deep.js":   "1",
		"n/e.cjs":       "1",
		// Node: what cannot be told.
		"nd/computed.js":            "const m = require('./rules-' + v);",
		"nd/alias.js":               "const r = require; r('./x');",
		"nd/template.js":            "import(`./plugins/${name}.js`);",
		"nd/spawn.js":               "const {execSync} = require('child_process'); execSync('sh x.sh');",
		"nd/eval.js":                "eval(code)",
		"nd/sibling.txt":            "pinned with its folder",
		"nd/unclosed.js":            "const s = 'no end\nrequire('./x')",
		"pkg/hook.js":               "const _ = require('lodash/fp'); require('left-pad');",
		"node_modules/lodash/fp.js": "1",
		// Python: the script's folder is on sys.path.
		"py/guard.py":          "import json\nimport helpers\n# subprocess in a comment starts nothing\n",
		"py/helpers.py":        "import re\nx = re.compile('a')\n",
		"py/json.py":           "print('shadows the standard library')",
		"py/pkg/__init__.py":   "",
		"py/pkg/mod.py":        "",
		"py/__pycache__/x.pyc": "written by python",
		"py/notes.md":          "not importable",
		"py/not-a-name/x.py":   "not importable",
		"pyd/guard.py":         "import subprocess\nsubprocess.run(['sh', 'x'])\n",
		"pyd/other.py":         "",
		// Shell: what a script runs, not what it reads.
		"shs/guard.sh": "#!/bin/sh\n. shs/lib.sh\n./shs/tool.sh --fast\npython3 shs/task.py\nnode shs/mod\ncat shs/data.txt > /dev/null\n",
		"shs/lib.sh":   "x=1",
		"shs/tool.sh":  "#!/bin/sh\nexit 0",
		"shs/task.py":  "",
		"shs/mod.js":   "require('./mod2')",
		"shs/mod2.js":  "",
		"shs/data.txt": "read, not run",
		"shd/guard.sh": "#!/bin/sh\n$TOOL --check\n",
		"shd/other":    "pinned with its folder",
		// Ruby.
		"rb/guard.rb":     "require 'json'\nrequire_relative 'lib/rules'\nload './rb/extra.rb'\n",
		"rb/lib/rules.rb": "require_relative \"more\"",
		"rb/lib/more.rb":  "",
		"rb/extra.rb":     "",
		"rbd/guard.rb":    "require name",
		// Runners' own configuration and environments.
		"bn/guard.ts":       "import './a.ts'",
		"bn/a.ts":           "",
		"bn/bunfig.toml":    "preload = [\"./setup.ts\"]",
		"bn/setup.ts":       "",
		"self/package.json": `{"name": "self-pkg", "exports": {"./x": "./x.js"}}`,
		"self/hook.js":      "require('self-pkg/x')",
		"self/x.js":         "",
		".venv/bin/python":  "#!/bin/sh",
		// A language whose loading is not read.
		"pl/guard.pl": "use lib '.'; require Foo;",
		"pl/Foo.pm":   "1;",
		"mk/Makefile": "include rules.mk\ncheck:\n\t./run.sh\n",
		"mk/rules.mk": "lint:\n\tsh lint.sh\n",
		"mk/run.sh":   "",
		"mk/lint.sh":  "",
	}
	for rel, content := range files {
		writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), content)
	}
	p := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	cases := []struct {
		command string
		want    []string
		not     []string
		notes   []string // each a note must hold
	}{
		{"node n/guard.js", []string{"n/a.js", "common/b.json", "n/c.mjs", "n/d/index.js", "n/d/deep.js", "n/e.cjs", "n/d.js"}, nil, nil},
		{"node nd/computed.js", []string{"nd/sibling.txt", "nd/eval.js"}, nil, []string{"computed.js uses require other than on a string literal", "its folder " + p("nd") + " is pinned instead"}},
		{"node nd/alias.js", []string{"nd/sibling.txt"}, nil, []string{"alias.js uses require other than on a string literal"}},
		{"node nd/template.js", []string{"nd/sibling.txt"}, nil, []string{"template.js imports a specifier computed when it runs"}},
		{"node nd/spawn.js", []string{"nd/sibling.txt"}, nil, []string{"spawn.js loads child_process"}},
		{"node nd/eval.js", []string{"nd/sibling.txt"}, nil, []string{"eval.js uses eval"}},
		{"node nd/unclosed.js", []string{"nd/sibling.txt"}, nil, []string{"unclosed.js cannot be read to its end"}},
		{"node pkg/hook.js", []string{"node_modules/lodash/fp.js", "pkg/node_modules/lodash", "pkg/node_modules/left-pad", "node_modules/left-pad"}, nil, []string{"loads the package lodash from " + p("node_modules")}},
		{"python3 py/guard.py", []string{"py/helpers.py", "py/json.py", "py/pkg/__init__.py", "py/pkg/mod.py"}, []string{"py/__pycache__/x.pyc", "py/notes.md", "py/not-a-name/x.py"}, nil},
		{"python3 -I py/guard.py", []string{"py/guard.py"}, []string{"py/json.py", "py/helpers.py"}, nil},
		{"python3 pyd/guard.py", []string{"pyd/other.py"}, nil, []string{"guard.py uses subprocess"}},
		{"sh shs/guard.sh", []string{"shs/lib.sh", "shs/tool.sh", "shs/task.py", "shs/mod.js", "shs/mod2.js"}, []string{"shs/data.txt"}, nil},
		{"sh shd/guard.sh", []string{"shd/other"}, nil, []string{"guard.sh runs `$TOOL --check`, code or a program known only when it runs"}},
		{"ruby rb/guard.rb", []string{"rb/lib/rules.rb", "rb/lib/more.rb", "rb/extra.rb"}, nil, nil},
		{"ruby rbd/guard.rb", nil, nil, []string{"guard.rb uses require other than on a string literal"}},
		{"perl pl/guard.pl", []string{"pl/Foo.pm"}, nil, []string{"guard.pl is run by an interpreter whose loading of other files is not read"}},
		{"node self/hook.js", []string{"self/x.js", "self/package.json"}, nil, []string{"hook.js imports self-pkg/x, which " + p("self/package.json") + " may map to its own files"}},
		{"cd mk && make check", []string{"mk/Makefile", "mk/run.sh"}, nil, nil},
	}
	for _, c := range cases {
		paths, notes := RunFileReport(c.command, root, root, testSources.ProjectDirVars())
		for _, w := range c.want {
			if !slices.Contains(paths, p(w)) {
				t.Errorf("%s: %s not pinned; pinned %q", c.command, w, paths)
			}
		}
		for _, n := range c.not {
			if slices.Contains(paths, p(n)) {
				t.Errorf("%s: %s pinned, but the hook does not run it", c.command, n)
			}
		}
		if len(c.notes) == 0 && len(notes) > 0 {
			t.Errorf("%s: unexpected notes %v", c.command, notes)
		}
		for _, want := range c.notes {
			found := false
			for _, n := range notes {
				found = found || strings.Contains(n.Message, want) && !n.Unpinned
			}
			if !found {
				t.Errorf("%s: no note holds %q: %v", c.command, want, notes)
			}
		}
	}
	// What runs code from an environment of the workspace is not pinned.
	for _, cmd := range []string{"uv run py/guard.py", ".venv/bin/python py/guard.py", "npx eslint .", "go run ./cmd/guard"} {
		_, notes := RunFileReport(cmd, root, root, testSources.ProjectDirVars())
		if !slices.ContainsFunc(notes, func(n RunNote) bool { return n.Unpinned }) {
			t.Errorf("%s: no note says what it runs is not pinned: %v", cmd, notes)
		}
	}
	// bun, from its folder: its bunfig.toml.
	paths, notes := RunFileReport("bun guard.ts", p("bn"), root, testSources.ProjectDirVars())
	for _, w := range []string{"bn/bunfig.toml", "bn/setup.ts", "bn/a.ts", "bunfig.toml"} {
		if !slices.Contains(paths, p(w)) {
			t.Errorf("bun guard.ts: %s not pinned: %q", w, paths)
		}
	}
	if !slices.ContainsFunc(notes, func(n RunNote) bool {
		return strings.Contains(n.Message, "bunfig.toml may name files bun loads or runs first")
	}) {
		t.Errorf("bun guard.ts: no note on bunfig.toml's preload: %v", notes)
	}
	// make, from the Makefile's folder: its includes and their recipes.
	paths, _ = RunFileReport("make check", p("mk"), root, testSources.ProjectDirVars())
	for _, w := range []string{"mk/Makefile", "mk/rules.mk", "mk/run.sh", "mk/lint.sh"} {
		if !slices.Contains(paths, p(w)) {
			t.Errorf("make check: %s not pinned; pinned %q", w, paths)
		}
	}
}

// TestRunFileFolderBound: a folder pinned whole past the bound is
// reported as not pinned, naming the folder.
func TestRunFileFolderBound(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "hooks", "guard.js"), "require(process.env.X)")
	for i := range maxFolderFiles + 1 {
		writeFile(t, filepath.Join(root, "hooks", "data", itoa(i)), "")
	}
	_, notes := RunFileReport("node hooks/guard.js", root, root, testSources.ProjectDirVars())
	unpinned := 0
	for _, n := range notes {
		if n.Unpinned {
			unpinned++
			if !strings.Contains(n.Message, filepath.Join(root, "hooks")+" holds more than") {
				t.Errorf("note %q does not name the folder", n.Message)
			}
		}
	}
	if unpinned != 1 {
		t.Errorf("%d notes of files not pinned, want 1: %v", unpinned, notes)
	}
}

// FuzzJSSpecifiers: any text lexes without panicking or hanging.
func FuzzJSSpecifiers(f *testing.F) {
	for _, s := range []string{"require('./a')", "import x from './y'", "`${`${require(z)}`}`", "a / b / c", "x = /[/]'/g; require('./q')", "/* open", "'open", "`${"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		specs, _ := jsSpecifiers([]byte(src))
		for _, s := range specs {
			if !strings.Contains(src, s) && !strings.Contains(src, "\\") {
				t.Errorf("specifier %q is not in the source", s)
			}
		}
	})
}

// TestInterpreterRun: the script an interpreter runs, past its options.
func TestInterpreterRun(t *testing.T) {
	for _, c := range []struct {
		lang string
		args []string
		want scriptRun
	}{
		{langShell, []string{"-e", "x.sh"}, scriptRun{script: "x.sh"}},
		{langShell, []string{"-o", "pipefail", "x.sh"}, scriptRun{script: "x.sh"}},
		{langShell, []string{"-c", "echo"}, scriptRun{inline: true}},
		{langNode, []string{"--require", "./r.js", "g.js"}, scriptRun{script: "g.js"}},
		{langNode, []string{"-e", "1"}, scriptRun{inline: true}},
		{langJS, []string{"run", "-A", "g.ts"}, scriptRun{script: "g.ts"}},
		{langPython, []string{"-IB", "g.py"}, scriptRun{script: "g.py", isolated: true}},
		{langPython, []string{"-W", "ignore", "-m", "a.b"}, scriptRun{module: "a.b"}},
		{langPython, []string{"-ma.b"}, scriptRun{module: "a.b"}},
		{langPython, nil, scriptRun{inline: true}},
		{langRuby, []string{"-I", "lib", "g.rb"}, scriptRun{script: "g.rb"}},
		{langRuby, []string{"-Ilib", "g.rb"}, scriptRun{script: "g.rb"}},
		{langOther, []string{"-NoProfile", "-File", "g.ps1"}, scriptRun{script: "g.ps1"}},
		{langOther, []string{"-e", "print 1"}, scriptRun{inline: true}},
	} {
		if got := interpreterRun(c.lang, c.args); got != c.want {
			t.Errorf("%s %q: %+v, want %+v", c.lang, c.args, got, c.want)
		}
	}
}

// TestCommandFiles: the files a command names itself, not what they load.
func TestCommandFiles(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "hooks", "a.py"), "import b")
	writeFile(t, filepath.Join(root, "hooks", "b.py"), "")
	got := CommandFiles("python3 hooks/a.py", root, root, testSources.ProjectDirVars())
	if !slices.Contains(got, filepath.Join(root, "hooks", "a.py")) || slices.Contains(got, filepath.Join(root, "hooks", "b.py")) {
		t.Errorf("CommandFiles = %q, want hooks/a.py and not hooks/b.py", got)
	}
	if !slices.Contains(RunFilePaths("python3 hooks/a.py", root, root, testSources.ProjectDirVars()), filepath.Join(root, "hooks", "b.py")) {
		t.Error("RunFilePaths does not pin the sibling module")
	}
}

// TestRunFileAfterCd: what a command runs after a cd to a known folder
// resolves from there, and what it loads is followed.
func TestRunFileAfterCd(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".cursor", "hooks", "guard.js"), "require('../common/rules')")
	writeFile(t, filepath.Join(root, ".cursor", "common", "rules.js"), "")
	writeFile(t, filepath.Join(root, ".cursor", "hooks", "check.py"), "import helper")
	writeFile(t, filepath.Join(root, ".cursor", "hooks", "helper.py"), "")
	for cmd, want := range map[string]string{
		"cd .cursor/hooks && node guard.js":        filepath.Join(root, ".cursor", "common", "rules.js"),
		"cd .cursor && cd hooks; python3 check.py": filepath.Join(root, ".cursor", "hooks", "helper.py"),
	} {
		if got := RunFilePaths(cmd, root, root, testSources.ProjectDirVars()); !slices.Contains(got, want) {
			t.Errorf("%s: %s not pinned: %q", cmd, want, got)
		}
	}
}
