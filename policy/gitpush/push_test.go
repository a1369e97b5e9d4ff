package gitpush

import (
	"slices"
	"testing"

	"github.com/agenthooks/agenthooks/policy/shellscan"
)

func TestAnalyze(t *testing.T) {
	type rs = []Refspec
	cases := []struct {
		line string
		want Push
	}{
		{"git status", Push{}},
		{"git stash push", Push{}},
		{"ls push", Push{}},
		{"git push", Push{Push: true, Implicit: true}},
		{"git push origin", Push{Push: true, Remote: "origin", Implicit: true}},
		{"git push origin main", Push{Push: true, Remote: "origin", Refspecs: rs{{Src: "main", Dst: "main"}}}},
		{"git send-pack origin main", Push{Push: true, Remote: "origin", Refspecs: rs{{Src: "main", Dst: "main"}}}},
		{"git push origin +main", Push{Push: true, Remote: "origin", Force: true, Refspecs: rs{{Src: "main", Dst: "main", Force: true}}}},
		{"git push origin HEAD:refs/heads/release/2", Push{Push: true, Remote: "origin", Refspecs: rs{{Src: "HEAD", Dst: "release/2"}}}},
		{"git push origin HEAD", Push{Push: true, Remote: "origin", Refspecs: rs{{Src: "HEAD"}}}},
		{"git push origin :old", Push{Push: true, Remote: "origin", Refspecs: rs{{Dst: "old"}}}},
		{"git push -d origin old", Push{Push: true, Remote: "origin", Delete: true, Refspecs: rs{{Dst: "old"}}}},
		{"git push origin tag v1", Push{Push: true, Remote: "origin", Refspecs: rs{{Src: "refs/tags/v1", Dst: "refs/tags/v1"}}}},
		{"git push --all", Push{Push: true, All: true, Implicit: true}},
		{"git push --mirror x", Push{Push: true, Mirror: true, Remote: "x", Implicit: true}},
		{"git push -fu origin f", Push{Push: true, Force: true, Remote: "origin", Refspecs: rs{{Src: "f", Dst: "f"}}}},
		{"git push -o ci.skip origin f", Push{Push: true, Remote: "origin", Refspecs: rs{{Src: "f", Dst: "f"}}}},
		{"git push --repo=up f2", Push{Push: true, Remote: "f2", Implicit: true}},
		{"git push origin f --force-with-lease", Push{Push: true, Force: true, Remote: "origin", Refspecs: rs{{Src: "f", Dst: "f"}}}},
		{"git push origin -- -weird", Push{Push: true, Remote: "origin", Refspecs: rs{{Src: "-weird", Dst: "-weird"}}}},
		{"git -C r -c x=y --no-pager push o b", Push{Push: true, Remote: "o", Refspecs: rs{{Src: "b", Dst: "b"}}}},
		{"git -c alias.p=push p o b", Push{Push: true, Remote: "o", Refspecs: rs{{Src: "b", Dst: "b"}}}},
		{"git -c alias.p='!git push' p", Push{Push: true, Implicit: true}},
		{"git $(echo push)", Push{Push: true, Dynamic: true}},
		{"git push origin $B", Push{Push: true, Dynamic: true, Remote: "origin", Refspecs: rs{{Src: "$B"}}}},
		{"git-push o b", Push{Push: true, Remote: "o", Refspecs: rs{{Src: "b", Dst: "b"}}}},
	}
	for _, c := range cases {
		cmds := shellscan.Commands(c.line)
		got := Analyze(cmds[len(cmds)-1])
		if !equalPush(got, c.want) {
			t.Errorf("Analyze(%q)\n got %+v\nwant %+v", c.line, got, c.want)
		}
	}
}

func equalPush(a, b Push) bool {
	return slices.Equal(a.Refspecs, b.Refspecs) &&
		a.Push == b.Push && a.Dynamic == b.Dynamic && a.Remote == b.Remote &&
		a.All == b.All && a.Mirror == b.Mirror && a.Tags == b.Tags &&
		a.Delete == b.Delete && a.Force == b.Force && a.Implicit == b.Implicit
}
