package config

import (
	"path/filepath"
	"regexp"
	"strings"
)

// A Ruby file loads others by require_relative (from its own folder),
// and by require or load of a path starting ./ ../ or / (from the working
// folder, or absolute). A bare require ('json') searches $LOAD_PATH,
// which holds no workspace folder unless the command adds one (ruby -I
// lib, pinned as a word of the command). Any other use of the loaders,
// Bundler (whose Gemfile may name code in the workspace), $LOAD_PATH
// edited, eval and programs started cannot be told: the file's folder is
// pinned whole instead.

// rbLoad finds the loaders; rbLiteral reads the string literal a loader
// is called with (no interpolation).
var (
	rbLoad    = regexp.MustCompile(`\b(require_relative|require|load|autoload)\b`)
	rbLiteral = regexp.MustCompile(`^[ \t]*\(?[ \t]*(?:'([^'\\]*)'|"([^"\\#]*)")`)
	rbRuns    = regexp.MustCompile("\\b(eval|instance_eval|class_eval|module_eval|instance_exec|system|exec|spawn|popen|Open3|PTY|Bundler|bundler|LOAD_PATH)\\b|`|%x|\\$:")
)

// rubyFile follows what one Ruby file loads.
func (r *resolver) rubyFile(p string) {
	data, ok := r.readScript(p)
	if !ok {
		return
	}
	code := rbCode(string(data))
	if m := rbRuns.FindString(code); m != "" {
		r.dynamic(p, "uses "+m+", which may load or run files no require names")
	}
	for _, loc := range rbLoad.FindAllStringSubmatchIndex(code, -1) {
		loader := code[loc[2]:loc[3]]
		lit := rbLiteral.FindStringSubmatch(code[loc[1]:])
		if lit == nil || loader == "autoload" {
			r.dynamic(p, "uses "+loader+" other than on a string literal")
			continue
		}
		name := lit[1] + lit[2]
		var base string
		switch {
		case loader == "require_relative":
			base = filepath.Join(filepath.Dir(p), name)
		case strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../") || filepath.IsAbs(name):
			base = name
			if !filepath.IsAbs(name) {
				base = filepath.Join(r.dir, name)
			}
		default:
			continue // $LOAD_PATH: outside the workspace
		}
		for _, c := range []string{base, base + ".rb"} {
			if q, ok := r.inside(c, r.dir); ok {
				r.add(q)
				if regularFile(q) && filepath.Ext(q) == ".rb" {
					r.follow(q, langRuby, 0)
				}
			}
		}
	}
}

// rbCode is Ruby source without its whole-line comments.
func rbCode(src string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}
