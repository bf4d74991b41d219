package config

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestTOMLConformance runs the parser on toml-test
// (https://github.com/toml-lang/toml-test), the TOML 1.1 test suite that
// ships inside the github.com/BurntSushi/toml module: every valid document
// must parse to the expected values, every invalid one must be refused.
func TestTOMLConformance(t *testing.T) {
	// GOPROXY=off: find the module in the cache, never download it.
	golist := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/BurntSushi/toml")
	golist.Env = append(os.Environ(), "GOPROXY=off")
	out, err := golist.Output()
	dir := filepath.Join(strings.TrimSpace(string(out)), "internal", "toml-test", "tests")
	if _, statErr := os.Stat(dir); err != nil || statErr != nil {
		if os.Getenv("CI") != "" { // CI has the module: its absence is a failure there
			t.Fatalf("toml-test not found (%v, %v): run go mod download", err, statErr)
		}
		t.Skipf("toml-test not found (%v, %v): run go mod download", err, statErr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.toml"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "*.toml"))
	files = append(files, more...)
	if len(files) < 500 {
		t.Fatalf("only %d test files in %s", len(files), dir)
	}
	for _, file := range files {
		name, _ := filepath.Rel(dir, file)
		if excludedForTOML11(strings.TrimSuffix(name, ".toml")) {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		root, perr := parseTOML(name, string(data))
		if strings.HasPrefix(name, "invalid") {
			if perr == nil {
				t.Errorf("%s: accepted:\n%s", name, data)
			}
			continue
		}
		if perr != nil {
			t.Errorf("%s: %v", name, perr)
			continue
		}
		wantJSON, err := os.ReadFile(strings.TrimSuffix(file, ".toml") + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var want any
		if err := json.Unmarshal(wantJSON, &want); err != nil {
			t.Fatal(err)
		}
		if got := tomlTestJSON(root); !sameTOMLTest(want, got) {
			g, _ := json.Marshal(got)
			t.Errorf("%s:\n got %s\nwant %s", name, g, strings.Join(strings.Fields(string(wantJSON)), " "))
		}
	}
}

// tomlTestJSON writes a parsed value in toml-test's JSON form: tables and
// arrays as they are, scalars as {"type": ..., "value": ...}.
func tomlTestJSON(v any) any {
	tv := func(typ, val string) any { return map[string]any{"type": typ, "value": val} }
	switch v := v.(type) {
	case *tomlTable:
		m := map[string]any{}
		for _, k := range v.keys {
			m[k.name] = tomlTestJSON(k.val)
		}
		return m
	case *tomlArray:
		return v.values(tomlTestJSON)
	case string:
		return tv("string", v)
	case int64:
		return tv("integer", strconv.FormatInt(v, 10))
	case float64:
		return tv("float", strconv.FormatFloat(v, 'g', -1, 64))
	case bool:
		return tv("bool", strconv.FormatBool(v))
	case tomlDatetime:
		s := string(v)
		switch {
		case len(s) >= 3 && s[2] == ':':
			return tv("time-local", s)
		case len(s) == 10:
			return tv("date-local", s)
		case strings.ContainsAny(s[10:], "Zz+-"):
			return tv("datetime", s)
		}
		return tv("datetime-local", s)
	}
	return v
}

// sameTOMLTest compares toml-test values: floats by value, dates by their
// numbers whatever the separators, and everything else exactly.
func sameTOMLTest(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(w) != len(g) {
			return false
		}
		if typ, ok := w["type"].(string); ok && len(w) == 2 {
			if _, isValue := w["value"].(string); isValue {
				return sameScalar(typ, w["value"].(string), g)
			}
		}
		for k := range w {
			if !sameTOMLTest(w[k], g[k]) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(w) != len(g) {
			return false
		}
		for i := range w {
			if !sameTOMLTest(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(want, got)
}

func sameScalar(typ, want string, got map[string]any) bool {
	gt, _ := got["type"].(string)
	gv, _ := got["value"].(string)
	if gt != typ {
		return false
	}
	switch typ {
	case "float":
		w, err1 := strconv.ParseFloat(strings.TrimPrefix(want, "+"), 64)
		g, err2 := strconv.ParseFloat(gv, 64)
		return err1 == nil && err2 == nil && (w == g || math.IsNaN(w) && math.IsNaN(g))
	case "datetime", "datetime-local", "date-local", "time-local":
		return normDatetime(want) == normDatetime(gv)
	}
	return want == gv
}

// normDatetime writes a date or time with T and Z in capitals, seconds, and
// no trailing zeros in the fraction.
func normDatetime(s string) string {
	s = strings.ToUpper(s)
	if len(s) > 10 && s[10] == ' ' {
		s = s[:10] + "T" + s[11:]
	}
	t := 0
	switch {
	case len(s) > 2 && s[2] == ':':
	case len(s) > 10:
		t = 11
	default:
		return s
	}
	if len(s) == t+5 || s[t+5] != ':' {
		s = s[:t+5] + ":00" + s[t+5:]
	}
	if rest := s[t+8:]; strings.HasPrefix(rest, ".") {
		end := 1
		for end < len(rest) && '0' <= rest[end] && rest[end] <= '9' {
			end++
		}
		frac := strings.TrimRight(rest[1:end], "0")
		if frac != "" {
			frac = "." + frac
		}
		s = s[:t+8] + frac + rest[end:]
	}
	return s
}

// excludedForTOML11 reports whether toml-test leaves the test out for TOML
// 1.1, which allows what these 1.0 tests refuse (toml-test's version.go).
func excludedForTOML11(name string) bool {
	switch name {
	case "invalid/datetime/no-secs", "invalid/local-time/no-secs", "invalid/local-datetime/no-secs",
		"invalid/string/basic-byte-escapes", "invalid/inline-table/trailing-comma",
		"invalid/inline-table/linebreak-01", "invalid/inline-table/linebreak-02",
		"invalid/inline-table/linebreak-03", "invalid/inline-table/linebreak-04":
		return true
	}
	return strings.HasPrefix(name, "valid/spec-1.0.0/") || strings.HasPrefix(name, "invalid/spec-1.0.0/")
}
