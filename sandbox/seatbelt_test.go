package sandbox

import (
	"strings"
	"testing"
)

// The Seatbelt profile is rendered from the same rules Landlock gets; it
// runs only on macOS, so its text is what is checked here.
func TestSeatbeltProfile(t *testing.T) {
	p := Policy{Configured: true, Type: WorkspaceReadonly, Roots: []string{"/w"}, ReadBoundary: ReadWorkspace,
		ReadonlyPaths: []Grant{{Path: `/opt/a "b"`}}, DisableTmpWrite: true, Network: Network{Default: NetDeny}}
	prof := seatbeltProfile(p.files(env{tmp: []string{"/tmp"}}), false, 4242)
	for _, want := range []string{"(deny default)", `(subpath "/w")`, `(subpath "/opt/a \"b\"")`, `(remote tcp "localhost:4242")`} {
		if !strings.Contains(prof, want) {
			t.Errorf("the profile lacks %s:\n%s", want, prof)
		}
	}
	for _, never := range []string{"(allow file-read*)\n", "(allow network*", "unix-socket", `(allow file-read* file-write*
  (subpath "/w")`, `(subpath "/tmp")`} {
		if strings.Contains(prof, never) {
			t.Errorf("the profile has %q, which the policy does not allow:\n%s", never, prof)
		}
	}
	open := seatbeltProfile(Policy{Type: WorkspaceReadwrite, Roots: []string{"/w"}, ReadBoundary: ReadSystem}.files(env{}), true, 0)
	if !strings.Contains(open, `(allow network* (remote ip "*:*"))`) || strings.Contains(open, "unix-socket") || strings.Contains(open, "(allow network*)") || !strings.Contains(open, "(allow file-read*)\n") {
		t.Errorf("an open policy's profile:\n%s", open)
	}
}
