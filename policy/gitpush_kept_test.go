package policy

import (
	"context"
	"path/filepath"
	"testing"

	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/traits"

	"github.com/agenthooks/agenthooks/policy/internal/gittest"
)

// keptDst is the destination gitPush gives the first refspec of line's
// first command, the line starting in dir, through the entry commands()
// caches (where gitPush's answer is kept).
func keptDst(t *testing.T, line, dir string) string {
	t.Helper()
	entry := commandsVal(line).(traits.Lister).Get(types.Int(0))
	v := celGitPush(context.Background, nil, dir, entry)
	refspecs := v.(traits.Mapper).Get(types.String("refspecs")).(traits.Lister)
	if refspecs.Size() != types.Int(1) {
		t.Fatalf("%s in %q: refspecs %v", line, dir, refspecs)
	}
	dst := refspecs.Get(types.Int(0)).(traits.Mapper).Get(types.String("dst"))
	return string(dst.(types.String))
}

// TestGitPushKeptRechecked: gitPush's answer for a line is kept with the
// line, and a later decision on the same line sees a push mapping set
// since (by an earlier command, say), a repository made where there was
// none, and another directory than the one the answer was made for.
func TestGitPushKeptRechecked(t *testing.T) {
	_, dir := gittest.Hermetic(t)
	repo := filepath.Join(dir, "repo")
	const line, dst = "git push origin feature/kept", "feature/kept"
	steps := []struct {
		name      string
		before    func()
		dir, want string
	}{
		{"without a directory", nil, "", dst},
		{"in a folder that does not exist", nil, repo, dst},
		{"in a repository made since", func() { gittest.Git(t, dir, "init", "-q", "repo") }, repo, dst},
		{"again", nil, repo, dst},
		{"after remote.origin.push is set", func() {
			gittest.Git(t, repo, "config", "remote.origin.push", "refs/heads/feature/kept:refs/heads/main")
		}, repo, ""},
		{"without a directory again", nil, "", dst},
		{"back in the repository", nil, repo, ""},
		{"after remote.origin.push is unset", func() {
			gittest.Git(t, repo, "config", "--unset", "remote.origin.push")
		}, repo, dst},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		if got := keptDst(t, line, s.dir); got != s.want {
			t.Errorf("%s: dst %q, want %q", s.name, got, s.want)
		}
	}
}
