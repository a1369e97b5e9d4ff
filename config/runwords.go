package config

import (
	"slices"
	"strings"
)

// maxWordDepth bounds how deeply a quoted word is split again (the
// script of sh -c '…', itself holding bash -c "…"): each level is a
// plain scan, and three cover every command seen in practice.
const maxWordDepth = 3

// commandWords returns the words of a hook command that may name a file,
// for pinning: over-reporting a word costs a stat, missing one lets a
// file run unreviewed, so the split errs towards more words.
//
// The command is split the way sh splits it, roughly: blanks separate
// words; single quotes, double quotes and backslashes quote; ; & | < > (
// ) and backquotes end a word; # at the start of a word begins a comment.
// Each of rootVars ($CURSOR_PROJECT_DIR and every agent's project
// variable, Sources.ProjectDirVars), with or without braces, becomes root; a word with any other expansion, or starting with ~, is
// dropped, as it cannot be resolved here. A word just after an output
// redirection (> >> >| &>) is dropped: it is written, not run or read, and
// pinning a log file would stop its hook after the first run.
//
// From each word it also takes what follows its first = (--config=FILE,
// VAR=FILE), and splits again a word holding blanks or operators (the
// script of sh -c '…'). The command is scanned twice, once with
// backslash as sh's escape and once as a plain character, the Windows
// path separator under PowerShell; the words of both are returned, each
// once, in order of appearance.
func commandWords(command, root string, rootVars []string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(w string) {
		if w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	var walk func(s string, depth int)
	walk = func(s string, depth int) {
		for _, escapes := range []bool{true, false} {
			for _, w := range splitCommand(s, root, rootVars, escapes) {
				add(w)
				if _, after, ok := strings.Cut(w, "="); ok {
					add(after)
				}
				if depth < maxWordDepth && strings.ContainsAny(w, " \t\n;&|<>()`") {
					walk(w, depth+1)
				}
			}
		}
	}
	walk(command, 0)
	return out
}

// splitCommand is one scan of commandWords: the words of s, unquoted,
// without operators, comments, unresolvable words and redirection
// targets. escapes says whether a backslash quotes the next character.
func splitCommand(s, root string, rootVars []string, escapes bool) []string {
	var (
		words   []string
		cur     strings.Builder
		inWord  bool
		dropped bool // the word holds an expansion that cannot be resolved
		skip    bool // the next word is an output redirection's target
	)
	end := func() {
		if inWord && !dropped && !skip {
			words = append(words, cur.String())
		}
		if inWord {
			skip = false
		}
		cur.Reset()
		inWord, dropped = false, false
	}
	// dollar expands a variable at s[i] ('$'); it returns the index after
	// what it consumed.
	dollar := func(i int) int {
		name, n := varName(s[i+1:])
		if name == "" {
			cur.WriteByte('$')
			return i + 1
		}
		if slices.Contains(rootVars, name) {
			cur.WriteString(root)
		} else {
			dropped = true
		}
		return i + 1 + n
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			end()
			i++
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case strings.IndexByte(";&|<>()`", c) >= 0:
			end()
			j := i
			for j < len(s) && strings.IndexByte(";&|<>()`", s[j]) >= 0 {
				j++
			}
			op := s[i:j]
			// >, >>, >|, &>, 2>: the next word is written. Not <> (read
			// too), >& (a descriptor follows: 2>&1) or >( (a command
			// follows: tee >(./x.sh)).
			skip = (strings.HasSuffix(op, ">") || strings.HasSuffix(op, ">|")) && !strings.Contains(op, "<")
			i = j
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
				break
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case c == '"':
			inWord = true
			i++
			for i < len(s) && s[i] != '"' {
				switch {
				case s[i] == '\\' && escapes && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0:
					cur.WriteByte(s[i+1])
					i += 2
				case s[i] == '$':
					i = dollar(i)
				default:
					cur.WriteByte(s[i])
					i++
				}
			}
			i++ // the closing quote
		case c == '\\' && escapes && i+1 < len(s) && s[i+1] == '\n':
			i += 2 // a line continuation
		case c == '\\' && escapes:
			inWord = true
			if i+1 < len(s) {
				cur.WriteByte(s[i+1])
			}
			i += 2
		case c == '$':
			inWord = true
			i = dollar(i)
		case c == '~' && !inWord:
			inWord, dropped = true, true
			i++
		default:
			inWord = true
			cur.WriteByte(c)
			i++
		}
	}
	end()
	return words
}

// varName reads the variable name at the start of s ($ already taken):
// NAME or {NAME}. It returns the name and the bytes it spans, or "" when
// s starts with neither (a lone $, $( …), $1 and the like).
func varName(s string) (string, int) {
	if strings.HasPrefix(s, "{") {
		j := strings.IndexByte(s, '}')
		if j < 0 {
			return "", 0
		}
		name := s[1:j]
		if name == "" {
			return "", 0
		}
		return name, j + 1
	}
	n := 0
	for n < len(s) && (s[n] == '_' || s[n]|0x20 >= 'a' && s[n]|0x20 <= 'z' || n > 0 && s[n] >= '0' && s[n] <= '9') {
		n++
	}
	if n == 0 {
		return "", 0
	}
	return s[:n], n
}
