package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestLintNoVacuousNegativeAssertions reads every test of the module for a
// negative assertion that drops the error of what it asserts on:
//
//	if hits, _ := ix.Search(q); len(hits) != 0 { t.Error(...) }
//
// A call that fails returns no hits, so the test passes when the code under
// test is broken. The error must be checked: `hits, err := …; err != nil ||
// len(hits) != 0`. Flagged: an if whose init assigns a call's results with
// the last (the error) to _, and whose condition is len(X) != 0, len(X) > 0
// or X != nil, X rooted at one of those results.
func TestLintNoVacuousNegativeAssertions(t *testing.T) {
	fset := token.NewFileSet()
	eachTest(t, fset, func(path string, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			if is, ok := n.(*ast.IfStmt); ok {
				if pos, bad := vacuous(is); bad {
					t.Errorf("%s: a negative assertion ignores the error of what it asserts on: check the error too", fset.Position(pos))
				}
			}
			return true
		})
	})
}

// sleepers are the test files still allowed time.Sleep: the e2e harness,
// which polls a real terminal's screen. Add none.
var sleepers = map[string]bool{
	"ui/e2e/term_test.go": true,
}

// TestLintNoSleepInTests fails on a time.Sleep, or a bare <-time.After, in
// a test outside sleepers: the standards say a test never sleeps to
// synchronise. It waits on an event instead (a channel, an injected clock,
// ui/internal/waitfor for what another process does), with a watchdog that
// only names a hang.
func TestLintNoSleepInTests(t *testing.T) {
	fset := token.NewFileSet()
	eachTest(t, fset, func(path string, f *ast.File) {
		timePkg := ""
		for _, im := range f.Imports {
			if im.Path.Value == `"time"` {
				timePkg = "time"
				if im.Name != nil {
					timePkg = im.Name.Name
				}
			}
		}
		if timePkg == "" || sleepers[filepath.ToSlash(path)] {
			return
		}
		cases := map[ast.Stmt]bool{} // a select's cases: a watchdog there is fine
		ast.Inspect(f, func(n ast.Node) bool {
			if cc, ok := n.(*ast.CommClause); ok && cc.Comm != nil {
				cases[cc.Comm] = true
			}
			if sel, ok := n.(*ast.SelectorExpr); ok && isIdent(sel.X, timePkg) && sel.Sel.Name == "Sleep" {
				t.Errorf("%s: time.Sleep in a test: wait on an event instead", fset.Position(sel.Pos()))
			}
			// <-time.After(d) on its own is a sleep too.
			if st, ok := n.(*ast.ExprStmt); ok && !cases[st] {
				if u, ok := st.X.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
					if call, ok := u.X.(*ast.CallExpr); ok {
						if sel, ok := call.Fun.(*ast.SelectorExpr); ok && isIdent(sel.X, timePkg) && (sel.Sel.Name == "After" || sel.Sel.Name == "Tick") {
							t.Errorf("%s: <-time.%s in a test is a sleep: wait on an event instead", fset.Position(st.Pos()), sel.Sel.Name)
						}
					}
				}
			}
			return true
		})
	})
}

// eachTest parses every test file of the module and hands it to check.
func eachTest(t *testing.T, fset *token.FileSet, check func(path string, f *ast.File)) {
	t.Helper()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		check(path, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d test files read", checked)
	}
}

// vacuous reports whether the if statement is a negative assertion on the
// results of a call whose error it drops.
func vacuous(is *ast.IfStmt) (token.Pos, bool) {
	as, ok := is.Init.(*ast.AssignStmt)
	if !ok || as.Tok != token.DEFINE || len(as.Lhs) < 2 || len(as.Rhs) != 1 {
		return 0, false
	}
	if _, ok := as.Rhs[0].(*ast.CallExpr); !ok {
		return 0, false
	}
	if last, ok := as.Lhs[len(as.Lhs)-1].(*ast.Ident); !ok || last.Name != "_" {
		return 0, false
	}
	results := map[string]bool{}
	for _, l := range as.Lhs[:len(as.Lhs)-1] {
		if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
			results[id.Name] = true
		}
	}
	found := false
	ast.Inspect(is.Cond, func(n ast.Node) bool {
		be, ok := n.(*ast.BinaryExpr)
		if !ok || found {
			return !found
		}
		switch {
		case (be.Op == token.NEQ || be.Op == token.GTR) && isZero(be.Y):
			if call, ok := be.X.(*ast.CallExpr); ok && isIdent(call.Fun, "len") && len(call.Args) == 1 && results[root(call.Args[0])] {
				found = true
			}
		case be.Op == token.NEQ && isIdent(be.Y, "nil") && results[root(be.X)]:
			found = true
		}
		return !found
	})
	return is.Pos(), found
}

// root is the name of the variable an expression such as a.b[c].d starts at.
func root(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x.Name
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return ""
		}
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func isZero(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit.Kind == token.INT && lit.Value == "0"
}
