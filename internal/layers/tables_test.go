package layers

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// tablePackages are the packages that keep no table of the process:
// what the agents' settings files are, and so which sources a host has,
// comes in per load as values (config.Locations.Settings, from the
// registry in agent/agents), never from a list filled at init.
var tablePackages = []string{"./config", "./session"}

// packageWrites type-checks files as one package and returns, as
// file:line: what, each statement that writes a package-level variable
// (assigns it, a field or an element of it, or counts it up or down)
// and each package-level variable of a type from package sync but
// sync.Pool: the shape of a registry that init or a Define function fills. A variable's
// own initializer is its declaration, not a write.
func packageWrites(t *testing.T, files []string, srcs map[string]string, lookup func(string) (io.ReadCloser, error)) []string {
	t.Helper()
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	fset, parsed, pkg := typeCheck(t, "pkg", files, srcs, lookup, info)
	var found []string
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		v, ok := scope.Lookup(name).(*types.Var)
		if !ok {
			continue
		}
		// A pool of scratch buffers holds nothing a load could read back.
		if typ := types.TypeString(v.Type(), nil); typ != "sync.Pool" && strings.Contains(typ, "sync.") {
			found = append(found, fmt.Sprintf("%s: package-level %s holds a lock or a sync map: a table of the process", fset.Position(v.Pos()), name))
		}
	}
	global := func(e ast.Expr) (string, bool) {
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
			case *ast.SelectorExpr:
				e = x.X
			case *ast.IndexExpr:
				e = x.X
			case *ast.StarExpr:
				e = x.X
			case *ast.Ident:
				v, ok := info.Uses[x].(*types.Var)
				return x.Name, ok && v.Parent() == scope
			default:
				return "", false
			}
		}
	}
	for _, f := range parsed {
		ast.Inspect(f, func(n ast.Node) bool {
			var lhs []ast.Expr
			switch s := n.(type) {
			case *ast.AssignStmt:
				if s.Tok != token.DEFINE {
					lhs = s.Lhs
				}
			case *ast.IncDecStmt:
				lhs = []ast.Expr{s.X}
			}
			for _, e := range lhs {
				if name, ok := global(e); ok {
					found = append(found, fmt.Sprintf("%s: writes package-level %s: a table of the process", fset.Position(e.Pos()), name))
				}
			}
			return true
		})
	}
	slices.Sort(found)
	return found
}

// TestCoreKeepsNoTable holds that config and session keep no
// package-level table their functions fill (docs/architecture.md, the
// sources: the registry is the one place that lists the agents'
// settings files), and that the check finds one.
func TestCoreKeepsNoTable(t *testing.T) {
	root := moduleRoot(t)
	for _, pkg := range tablePackages {
		files, lookup := exportData(t, root, pkg)
		if len(files) == 0 {
			t.Fatalf("go list found no file of %s", pkg)
		}
		for _, w := range packageWrites(t, files, nil, lookup) {
			t.Errorf("%s; what a host knows comes in per load as values (config.Locations.Settings)", w)
		}
		if pkg != "./config" {
			continue
		}
		extra := filepath.Join(filepath.Dir(files[0]), "zz_define.go")
		src := "package config\n\nimport \"sync\"\n\nvar defined struct {\n\tmu    sync.Mutex\n\tfiles []*Settings\n}\n\n" +
			"func DefineSettings(s *Settings) *Settings {\n\tdefined.mu.Lock()\n\tdefer defined.mu.Unlock()\n\tdefined.files = append(defined.files, s)\n\treturn s\n}\n"
		got := packageWrites(t, append(files, extra), map[string]string{extra: src}, lookup)
		joined := strings.Join(got, "\n")
		if len(got) != 2 || !strings.Contains(joined, "zz_define.go:5:5: package-level defined holds a lock") || !strings.Contains(joined, "zz_define.go:13:2: writes package-level defined") {
			t.Errorf("the check did not find the planted table:\n%s", strings.Join(got, "\n"))
		}
	}
}
