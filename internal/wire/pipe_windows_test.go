//go:build windows

package wire

import (
	"errors"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/windows"
)

func sid(t *testing.T, s string) *windows.SID {
	t.Helper()
	v, err := windows.StringToSid(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Only the same SID is the same user: another user's, a group's, the
// system's, a prefix of the user's, or none at all is not.
func TestSameUser(t *testing.T) {
	me := sid(t, "S-1-5-21-1004336348-1177238915-682003330-1001")
	if !SameUser(me, sid(t, "S-1-5-21-1004336348-1177238915-682003330-1001")) {
		t.Error("a SID is not the same user as itself")
	}
	for _, other := range []string{
		"S-1-5-21-1004336348-1177238915-682003330-1002",
		"S-1-5-21-1004336348-1177238915-682003331-1001",
		"S-1-5-21-1004336348-1177238915-682003330",
		"S-1-5-21-1004336348-1177238915-682003330-1001-1",
		"S-1-5-18",
		"S-1-5-32-544",
		"S-1-1-0",
	} {
		if SameUser(me, sid(t, other)) {
			t.Errorf("%s is taken for %s", other, me)
		}
	}
	if SameUser(me, nil) || SameUser(nil, me) || SameUser(nil, nil) {
		t.Error("no SID is taken for a user")
	}
}

// A peer is accepted only when its process is found and runs as the
// expected user.
func TestCheckPeerSID(t *testing.T) {
	me := sid(t, "S-1-5-21-1-2-3-1001")
	as := func(s string) func(uint32) (*windows.SID, error) {
		return func(uint32) (*windows.SID, error) { return sid(t, s), nil }
	}
	if err := CheckPeerSID("server", 42, nil, me, as("S-1-5-21-1-2-3-1001")); err != nil {
		t.Errorf("the user's own server refused: %v", err)
	}
	if err := CheckPeerSID("server", 42, nil, me, as("S-1-5-21-1-2-3-1002")); err == nil || !strings.Contains(err.Error(), "S-1-5-21-1-2-3-1002") {
		t.Errorf("another user's server: %v", err)
	}
	if err := CheckPeerSID("client", 42, errors.New("no pid"), me, as("S-1-5-21-1-2-3-1001")); err == nil {
		t.Error("a client without a process id was accepted")
	}
	gone := func(uint32) (*windows.SID, error) { return nil, errors.New("gone") }
	if err := CheckPeerSID("client", 42, nil, me, gone); err == nil {
		t.Error("a client whose process cannot be opened was accepted")
	}
}

// This process runs as itself; the pipe's name is the user's, the
// protocol's and the socket path's.
func TestPipeNameAndDir(t *testing.T) {
	self, err := UserSID()
	if err != nil {
		t.Fatal(err)
	}
	p, err := ProcessSID(uint32(os.Getpid()))
	if err != nil || !SameUser(self, p) {
		t.Fatalf("this process runs as %v (%v); want %v", p, err, self)
	}
	a, _ := PipeName(`C:\a\engine-v2-x.sock`)
	b, _ := PipeName(`C:\b\engine-v2-x.sock`)
	if a == b || !strings.HasPrefix(a, `\\.\pipe\agenthooks-`+self.String()+"-engine-v") {
		t.Errorf("pipe names %s and %s", a, b)
	}
	tmp, err := os.MkdirTemp("", "wire")
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "TMP" {
			return tmp
		}
		return ""
	}
	dir, err := Dir(getenv)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Dir(getenv)
	if err != nil || again != dir || !strings.HasPrefix(dir, tmp) {
		t.Errorf("Dir: %s, then %s (%v)", dir, again, err)
	}
	os.Remove(dir)
	os.Remove(tmp)
}
