package gitpush

import (
	"testing"

	"github.com/agenthooks/agenthooks/policy/internal/gittest"
)

// TestPushSound: the git constructs docs/policies.md (Soundness) decides,
// read in a real repository.
func TestPushSound(t *testing.T) {
	_, dir := gittest.Hermetic(t)
	gittest.Git(t, dir, "init", "-q")
	// want is describePush's form; "push " is a push to a destination not
	// known, " ?pattern" marks a wildcard destination.
	cases := []struct{ line, want string }{
		// Plumbing and helpers that update a remote.
		{"git http-push https://example.com/r.git main", "push main"},
		{"git subtree push --prefix=sub origin main", "push main"},
		{"git subtree push -P sub origin refs/heads/release/1", "push release/1"},
		{"git-subtree push --prefix=sub origin main", "push main"},
		{"git receive-pack ../origin.git", "?"},
		{"git-receive-pack ../origin.git", "?"},
		{"git remote-https origin https://example.com/r.git", "?"},
		{"git shell -c \"git-receive-pack 'x'\"", "?"},
		{"git http-backend", "?"},
		// Command lines git runs.
		{"git submodule foreach 'git push origin main'", "?"},
		{"git rebase --exec 'git push origin main' HEAD~1", "?"},
		{"git rebase -x 'git push origin main' HEAD~1", "?"},
		{"git bisect run ./test.sh", "?"},
		{"git filter-branch --tree-filter 'x' HEAD", "?"},
		{"git difftool -x 'sh -c x' HEAD", "?"},
		{"git -c core.pager='git push origin main' log", "?"},
		{"git -c core.sshCommand='sh -c x' fetch", "?"},
		{"git -c credential.helper='!sh -c x' fetch", "?"},
		{"git -c url.ext::sh.insteadOf=https:// fetch", "?"},
		{"git -c core.pager=cat log -1", "-"},
		{"git -c user.name=x commit -m m", "-"},
		// Wildcards and configured destinations.
		{"git push origin 'refs/heads/ma*:refs/heads/ma*'", "push  ?pattern"},
		{"git push origin 'refs/heads/*'", "push  ?pattern"},
		{"git -c remote.origin.push=refs/heads/feature/x:refs/heads/main push origin feature/x", "push "},
		{"git config remote.origin.push refs/heads/feature/x:refs/heads/main; git push origin feature/x", "push "},
		{"git -c remote.origin.push=x:y push origin a:feature/x", "push feature/x"},
		{"git push origin feature/x", "push feature/x"},
		// Help.
		{"git push --help", "-"},
		{"git push -h", "-"},
		{"git push -h origin main", "push main"},
	}
	for _, c := range cases {
		p := pushOf(t, dir, c.line)
		got := describePush(p)
		for _, r := range p.Refspecs {
			if r.Pattern != "" {
				got += " ?pattern"
			}
		}
		if got != c.want {
			t.Errorf("%s\n got %q, want %q", c.line, got, c.want)
		}
	}
	// A remote.<name>.push in the repository's configuration, set by an
	// earlier command of the session, makes a source-only refspec's
	// destination unknown; an explicit one stays.
	gittest.Git(t, dir, "config", "remote.origin.push", "refs/heads/feature/x:refs/heads/main")
	if got := describePush(pushOf(t, dir, "git push origin feature/x")); got != "push " {
		t.Errorf("with remote.origin.push configured: got %q, want an unknown destination", got)
	}
	if got := describePush(pushOf(t, dir, "git push origin feature/x:feature/x")); got != "push feature/x" {
		t.Errorf("an explicit destination with remote.origin.push configured: got %q", got)
	}
}
