package i18n_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/backoff-playground/playground/app/i18n"
)

// keyArg is where each of Lang's methods takes its catalog key.
var keyArg = map[string]int{"T": 0, "F": 0, "Plural": 1, "Count": 1}

// Every catalog key the code names is in the catalog, in both languages
// (TestEveryEntryHasBothLanguages): T returns a missing key as it is, so
// a typo would show on the page as "herd.verdict-x" rather than fail. A
// key written as a literal prefix and a name ("jname." + kind) needs at
// least one key with that prefix; the families' own tests check each name.
func TestEveryKeyInTheCode(t *testing.T) {
	keys := i18n.Keys()
	have := func(k string) bool { return slices.Contains(keys, k) }
	prefixed := func(p string) bool {
		return slices.ContainsFunc(keys, func(k string) bool { return strings.HasPrefix(k, p) })
	}
	root := filepath.Join("..", "..")
	seen := 0
	for _, dir := range []string{"app", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				i, ok := keyArg[sel.Sel.Name]
				if !ok || len(call.Args) <= i {
					return true
				}
				if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "strings" || x.Name == "bytes" || x.Name == "regexp") {
					return true
				}
				at := fset.Position(call.Pos())
				switch a := call.Args[i].(type) {
				case *ast.BasicLit:
					if k, err := strconv.Unquote(a.Value); err == nil && a.Kind == token.STRING {
						seen++
						if !have(k) {
							t.Errorf("%s: the key %q is not in the catalog", at, k)
						}
					}
				case *ast.BinaryExpr:
					if lit, ok := a.X.(*ast.BasicLit); ok && lit.Kind == token.STRING && a.Op == token.ADD {
						p, _ := strconv.Unquote(lit.Value)
						seen++
						if !prefixed(p) {
							t.Errorf("%s: no key starts with %q", at, p)
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d keys", seen)
	if seen < 300 {
		t.Errorf("found %d keys in the code: the scan missed the calls", seen)
	}
}
