package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/internal/lazyre"
)

// refusalLine matches what programs print when the kernel refuses them:
// sh, coreutils, Go, Python, Node.
var refusalLine = lazyre.New(`(?i)(permission denied|operation not permitted|read-only file system|EACCES|EPERM)`)

// complainer matches the program's own name at the start of its
// complaint, with the script line number a shell adds.
var complainer = lazyre.New(`^\S+:\s+(?:line\s+)?(?:\d+:\s+)?`)

// pathWord finds the paths in a line, quoted or not.
var pathWord = lazyre.New(`(?:^|[\s'"‘“(])((?:/|\./|\.\./|~/)?[^\s'"’”:()]+)`)

// Explain returns, for a command that failed inside p, one line for each
// refusal in its output the sandbox caused, naming the rule and the file
// that sets it. It is a best effort: the kernel tells the program, not
// agenthooks, so this reads the program's own complaint. The proxy names
// its refusals itself.
func Explain(p Policy, cwd, output string) []string {
	if !p.Enabled() {
		return nil
	}
	e := currentEnv()
	r := p.files(e)
	var notes []string
	add := func(s string) {
		for _, n := range notes {
			if n == s {
				return
			}
		}
		notes = append(notes, s)
	}
	for line := range strings.SplitSeq(output, "\n") {
		if strings.HasPrefix(line, "agenthooks sandbox:") || !refusalLine().MatchString(line) {
			continue
		}
		low := strings.ToLower(line)
		if strings.Contains(low, "connect") || strings.Contains(low, "socket") {
			add("agenthooks sandbox: direct network connections are refused; commands reach the network through the proxy in HTTP_PROXY and HTTPS_PROXY, as networkPolicy allows" + from(p.Network.DefaultFrom, "default deny"))
			continue
		}
		// "/bin/sh: 1: cannot create /x: …", "/usr/bin/cp: cannot …": the
		// program that complains is not what was refused.
		line = complainer().ReplaceAllString(line, "")
		for _, m := range pathWord().FindAllStringSubmatch(line, -1) {
			path := m[1]
			if !strings.Contains(path, "/") && !strings.Contains(line, "cannot create "+path) && !strings.Contains(line, "'"+path+"'") {
				continue
			}
			if strings.HasPrefix(path, "~/") {
				path = filepath.Join(e.home, path[2:])
			} else if !filepath.IsAbs(path) {
				path = filepath.Join(cwd, path)
			}
			path = filepath.Clean(path)
			if n := p.whyRefused(r, path); n != "" {
				add(n)
			}
		}
	}
	return notes
}

// whyRefused names the rule that keeps a command from path, or "" when
// the sandbox allows both reading and writing it (the refusal was
// someone else's).
func (p Policy) whyRefused(r fsRules, path string) string {
	if !r.readAll && !under(path, r.read) && !under(path, r.write) {
		return fmt.Sprintf("agenthooks sandbox: reading %s is refused: readBoundary is \"workspace\"%s, and the path is in neither the workspace nor additionalReadonlyPaths", path, from(p.ReadBoundaryFrom, "default"))
	}
	if under(path, r.write) || under(path, r.devices) {
		return ""
	}
	switch {
	case p.Type == WorkspaceReadonly:
		return fmt.Sprintf("agenthooks sandbox: writing %s is refused: type is \"workspace_readonly\"%s, which lets commands write only the temporary folders", path, from(p.TypeFrom, "default"))
	case p.DisableTmpWrite && under(path, currentEnv().tmp):
		return fmt.Sprintf("agenthooks sandbox: writing %s is refused: disableTmpWrite is true%s", path, from(p.DisableTmpWriteFrom, ""))
	}
	return fmt.Sprintf("agenthooks sandbox: writing %s is refused: type is \"workspace_readwrite\"%s, which lets commands write the workspace, additionalReadwritePaths and the temporary folders only", path, from(p.TypeFrom, "default"))
}

func under(path string, dirs []string) bool {
	for _, d := range dirs {
		if pathCovers(d, path) {
			return true
		}
	}
	return false
}
