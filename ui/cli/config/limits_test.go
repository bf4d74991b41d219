package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestTOMLDepth checks that nesting deeper than maxDepth is refused with the
// place where it goes too deep: the '{' of an inline table, the key of an
// array (the library keeps no place for arrays), or the part of a key path.
func TestTOMLDepth(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
	}{
		{"arrays", "# deep\na=" + strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000) + "\n", 2, 1},
		{"inline tables", "a=" + strings.Repeat("{b=", 10_000) + "1" + strings.Repeat("}", 10_000), 1, 3 + 3*maxDepth},
		{"arrays and tables", "a=" + strings.Repeat("[{b=", 5_000) + "1" + strings.Repeat("}]", 5_000), 1, 5 + 4*(maxDepth/2-1)},
		{"dotted key", "\n\n" + strings.Repeat("a.", 10_000) + "b = 1\n", 3, 1 + 2*maxDepth},
		{"header", "[" + strings.Repeat("a.", 10_000) + "b]\n", 1, 2 + 2*maxDepth},
		{"array of tables", "[[" + strings.Repeat("a.", maxDepth-1) + "b]]\n", 1, 3 + 2*(maxDepth-1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("x.toml", []byte(tc.src))
			var e *Error
			if !errors.As(err, &e) || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, "nested more than 64 levels deep") {
				t.Errorf("error = %v, want %d:%d and nested more than 64 levels deep", err, tc.line, tc.col)
			}
		})
	}
	// As deep as allowed is fine.
	ok := "a=" + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + "\n" +
		strings.Repeat("b.", maxDepth-1) + "c = 1\n"
	if _, err := parse("x.toml", []byte(ok)); err != nil && strings.Contains(err.Error(), "more than") {
		t.Errorf("depth %d: %v", maxDepth, err)
	}
	// Deeper than the library's own limit, the library's error.
	_, err := parse("x.toml", []byte("a="+strings.Repeat("[", 30_000)))
	var e *Error
	if !errors.As(err, &e) || e.Line != 1 || e.Col == 0 {
		t.Errorf("30000 [s: %v", err)
	}
}

// TestLoadDeepFile checks the file's path and line reach the message.
func TestLoadDeepFile(t *testing.T) {
	path := write(t, t.TempDir(), "[profiles.w]\nmodel = \"m\"\nstop_sequences = "+strings.Repeat("[", 10_000)+strings.Repeat("]", 10_000)+"\n")
	_, err := Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":3:") || !strings.Contains(err.Error(), "nested more than 64 levels deep") {
		t.Errorf("Load = %v", err)
	}
	path = write(t, t.TempDir(), "[profiles.w]\nmodel = \"m\"\nstop_sequences = "+strings.Repeat("[", 10_000)+"\n")
	if _, err := Load(path); err == nil || !strings.HasPrefix(err.Error(), path+":3:") {
		t.Errorf("Load of unclosed [s = %v", err)
	}
}

// TestLoadTooLarge checks that a config file larger than maxConfigSize, and
// a tools file larger than maxFileSize, is refused before it is read whole.
func TestLoadTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte("# "+strings.Repeat("x", maxConfigSize)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	var e *Error
	if !errors.As(err, &e) || e.Path != path || !strings.Contains(e.Msg, "larger than 64 KiB: a config file is never that big") {
		t.Errorf("Load = %v", err)
	}
	// Exactly maxConfigSize is read.
	if err := os.WriteFile(path, []byte("#"+strings.Repeat("x", maxConfigSize-2)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Errorf("Load of %d bytes = %v", maxConfigSize, err)
	}
	if err := os.WriteFile(path, []byte("# "+strings.Repeat("x", maxFileSize)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = LoadTools(path)
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "larger than 1 MiB: a tools file") {
		t.Errorf("LoadTools = %v", err)
	}
}

// TestTOMLMaxKeys checks that a file with maxKeys keys loads and that one
// more is refused at its place, before the library looks them up.
func TestTOMLMaxKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("[profiles.w]\n") // profiles and w are two keys
	for i := range maxKeys - 2 {
		fmt.Fprintf(&b, "k%d = 1\n", i)
	}
	if _, err := parse("x.toml", []byte(b.String())); err == nil || strings.Contains(err.Error(), "more than") {
		t.Fatalf("%d keys: %v", maxKeys, err)
	}
	b.WriteString("a.b = 2\n")
	_, err := parse("x.toml", []byte(b.String()))
	var e *Error
	if !errors.As(err, &e) || e.Line != maxKeys || e.Col != 1 || !strings.Contains(e.Msg, "more than 2000 keys: a config file is never that big") {
		t.Errorf("%d keys: %v", maxKeys+1, err)
	}
	// Tables in arrays count too.
	_, err = parse("x.toml", []byte("a = ["+strings.Repeat("{},", maxKeys)+"]\n"))
	if !errors.As(err, &e) || e.Line != 1 || e.Col != 6+3*(maxKeys-1) {
		t.Errorf("%d tables: %v", maxKeys, err)
	}
}

// TestLoadBigAllocates counts the bytes allocated to load each of the
// expensive files of bigInputs: within 50 MB, and within 300 times the
// file's size.
func TestLoadBigAllocates(t *testing.T) {
	for name, text := range bigInputs() {
		data := []byte(text)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _ = parse("big.toml", data)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 50<<20 || n > 300*uint64(len(data)) {
			t.Errorf("%s: %d bytes allocated to load %d", name, n, len(data))
		}
	}
}
