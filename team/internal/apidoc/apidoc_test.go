package apidoc_test

import (
	"os"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/team/internal/apidoc"
	"github.com/agenthooks/agenthooks/team/teamv1"
)

// TestDocsMatchTheProto fails when docs/team.md's API reference is not
// what team.proto renders: run go generate ./team.
func TestDocsMatchTheProto(t *testing.T) {
	src, err := os.ReadFile("../../proto/team.proto")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../../docs/team.md")
	if err != nil {
		t.Fatal(err)
	}
	want, err := apidoc.Render(string(src))
	if err != nil {
		t.Fatal(err)
	}
	i, j := strings.Index(string(doc), apidoc.Begin), strings.Index(string(doc), apidoc.End)
	if i < 0 || j < i {
		t.Fatalf("docs/team.md has no generated API reference; add the markers and run go generate ./team")
	}
	if got := string(doc)[i : j+len(apidoc.End)]; got != want {
		t.Fatalf("docs/team.md's API reference differs from team.proto: run go generate ./team")
	}
	// Every method and every field of the compiled API is in it.
	services := teamv1.File_team_proto.Services()
	for i := range services.Len() {
		sd := services.Get(i)
		for j := range sd.Methods().Len() {
			md := sd.Methods().Get(j)
			if !strings.Contains(want, "#### "+string(sd.Name())+"."+string(md.Name())+"\n") {
				t.Errorf("%s.%s is not in the reference", sd.Name(), md.Name())
			}
			fields := md.Input().Fields()
			for k := range fields.Len() {
				if !strings.Contains(want, "| `"+string(fields.Get(k).Name())+"` | `"+fields.Get(k).JSONName()+"` |") {
					t.Errorf("%s.%s: field %s is not in the reference", sd.Name(), md.Name(), fields.Get(k).Name())
				}
			}
		}
	}
}
