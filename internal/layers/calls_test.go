package layers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// engineRuns are the engine's methods that run hooks: the command line
// runs them only through host (docs/architecture.md: every verb that
// runs hooks goes through it, and so does its fault handling).
var engineRuns = []string{"Run", "DryRun", "Fault"}

// exportData builds pkg and what it imports, and returns where each
// package's export data is, for type-checking pkg from source.
func exportData(t *testing.T, root, pkg string) (files []string, lookup func(string) (io.ReadCloser, error)) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), "go", "list", "-export", "-deps", "-json=ImportPath,Export,Dir,GoFiles", pkg)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export %s: %v\n%s", pkg, err, stderr.String())
	}
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Export, Dir string
			GoFiles                 []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		exports[p.ImportPath] = p.Export
		if p.ImportPath == module+"/"+pkg[2:] {
			for _, f := range p.GoFiles {
				files = append(files, filepath.Join(p.Dir, f))
			}
		}
	}
	return files, func(path string) (io.ReadCloser, error) {
		if e := exports[path]; e != "" {
			return os.Open(e)
		}
		return nil, fmt.Errorf("no export data for %s", path)
	}
}

// typeCheck parses files (srcs replaces the content of those it names)
// and type-checks them as one package named name, filling info.
func typeCheck(t *testing.T, name string, files []string, srcs map[string]string, lookup func(string) (io.ReadCloser, error), info *types.Info) (*token.FileSet, []*ast.File, *types.Package) {
	t.Helper()
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		var src any
		if s, ok := srcs[f]; ok {
			src = s
		}
		af, err := parser.ParseFile(fset, f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, af)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", lookup)}
	pkg, err := conf.Check(name, fset, parsed, info)
	if err != nil {
		t.Fatalf("type-check: %v", err)
	}
	return fset, parsed, pkg
}

// engineCalls type-checks files as one package and returns each call of
// an engine method in engineRuns, as file:line: the method.
func engineCalls(t *testing.T, files []string, srcs map[string]string, lookup func(string) (io.ReadCloser, error)) []string {
	t.Helper()
	info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
	fset, _, _ := typeCheck(t, "cli", files, srcs, lookup, info)
	var found []string
	for sel, s := range info.Selections {
		fn, ok := s.Obj().(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != module+"/engine" || !slices.Contains(engineRuns, fn.Name()) {
			continue
		}
		if named, ok := types.Unalias(derefType(s.Recv())).(*types.Named); ok && named.Obj().Name() == "Engine" {
			found = append(found, fmt.Sprintf("%s: engine.(*Engine).%s", fset.Position(sel.Pos()), fn.Name()))
		}
	}
	slices.Sort(found)
	return found
}

func derefType(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// TestCLIRunsHooksThroughHost holds that no file of internal/cli calls
// the engine's Run, DryRun or Fault: a verb that runs hooks asks host,
// which answers faults and recovers panics.
func TestCLIRunsHooksThroughHost(t *testing.T) {
	files, lookup := exportData(t, moduleRoot(t), "./internal/cli")
	if len(files) == 0 {
		t.Fatal("go list found no file of internal/cli")
	}
	for _, c := range engineCalls(t, files, nil, lookup) {
		t.Errorf("%s: internal/cli runs hooks through host (Host.Run, PlanExec, ReportExec, DryRun), never the engine", c)
	}
	// The check finds such a call.
	extra := filepath.Join(filepath.Dir(files[0]), "zz_engine_call.go")
	src := "package cli\n\nimport (\n\t\"context\"\n\n\t\"github.com/agenthooks/agenthooks/engine\"\n)\n\n" +
		"func zz(ctx context.Context, e *engine.Engine) { _, _ = e.Run(ctx, \"stop\", nil) }\n"
	got := engineCalls(t, append(files, extra), map[string]string{extra: src}, lookup)
	if len(got) != 1 || !bytes.Contains([]byte(got[0]), []byte("zz_engine_call.go:9:")) {
		t.Errorf("the check did not find the planted call: %q", got)
	}
}
