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
	line := "git push origin feature/kept"
	if got := keptDst(t, line, ""); got != "feature/kept" {
		t.Fatalf("without a directory: dst %q, want feature/kept", got)
	}
	if got := keptDst(t, line, repo); got != "feature/kept" {
		t.Fatalf("in a folder that does not exist: dst %q, want feature/kept", got)
	}
	gittest.Git(t, dir, "init", "-q", "repo")
	if got := keptDst(t, line, repo); got != "feature/kept" {
		t.Fatalf("in a repository without push mappings: dst %q, want feature/kept", got)
	}
	if got := keptDst(t, line, repo); got != "feature/kept" {
		t.Fatalf("again: dst %q, want feature/kept", got)
	}
	gittest.Git(t, repo, "config", "remote.origin.push", "refs/heads/feature/kept:refs/heads/main")
	if got := keptDst(t, line, repo); got != "" {
		t.Errorf("after remote.origin.push is set: dst %q, want unknown", got)
	}
	if got := keptDst(t, line, ""); got != "feature/kept" {
		t.Errorf("without a directory again: dst %q, want feature/kept", got)
	}
	if got := keptDst(t, line, repo); got != "" {
		t.Errorf("back in the repository: dst %q, want unknown", got)
	}
	gittest.Git(t, repo, "config", "--unset", "remote.origin.push")
	if got := keptDst(t, line, repo); got != "feature/kept" {
		t.Errorf("after remote.origin.push is unset: dst %q, want feature/kept", got)
	}
}

