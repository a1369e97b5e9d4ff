package policy

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenthooks/agenthooks/event"
)

// The same policy at two paths is compiled once; each keeps its own path,
// which its evaluation errors name. A change to one leaves the other's
// rules alone.
func TestCacheSharesContent(t *testing.T) {
	const src = `rules:
  - name: lookup
    steps: [beforeShellExecution]
    when: input.nokey == 1
    decision: deny
`
	a, b := filepath.Join(t.TempDir(), "a.yaml"), filepath.Join(t.TempDir(), "b.yaml")
	writeFile(t, a, src)
	writeFile(t, b, src)
	c := &Cache{}
	pa, err := c.Get(a)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := c.Get(b)
	if err != nil {
		t.Fatal(err)
	}
	if pa.File != a || pb.File != b {
		t.Fatalf("files %q and %q, want %q and %q", pa.File, pb.File, a, b)
	}
	if pa.Rules[0] != pb.Rules[0] {
		t.Error("the same content at two paths was compiled twice")
	}
	for _, p := range []*Policy{pa, pb} {
		_, err := p.DecideJSON(context.Background(), event.BeforeShellExecution, []byte(`{"command":"ls"}`))
		var ee *EvalError
		if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), p.File+":4:") {
			t.Errorf("%s: error %v, want one naming the file", p.File, err)
		}
	}
	writeFile(t, b, strings.Replace(src, "nokey == 1", "nokey == 2", 1)+"\n")
	pb2, err := c.Get(b)
	if err != nil || pb2.Rules[0] == pa.Rules[0] || !strings.Contains(pb2.Rules[0].When, "== 2") {
		t.Fatalf("changed copy: %v, %v", pb2, err)
	}
	if pa2, _ := c.Get(a); pa2 != pa {
		t.Error("a change to one copy recompiled the other")
	}
	// A broken file is not shared: its errors name it.
	broken := strings.Replace(src, "input.nokey == 1", "nosuch", 1)
	writeFile(t, a, broken)
	writeFile(t, b, broken)
	for _, f := range []string{a, b} {
		if _, err := c.Get(f); err == nil || !strings.Contains(err.Error(), f+":4:") {
			t.Errorf("%s: %v, want its own error", f, err)
		}
	}
}

// The CEL environment is built once per process, on first need, and every
// policy compiles in it.
func TestCELEnvIsShared(t *testing.T) {
	e1, err := celEnv()
	if err != nil {
		t.Fatal(err)
	}
	e2, _ := mustEnv()
	if e1 != e2 {
		t.Error("the CEL environment was built twice")
	}
}
