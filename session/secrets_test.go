package session

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
)

// usageKey matches the token counters that may appear in a session.
var usageKey = regexp.MustCompile(`^(input|output|max|budget)_tokens$|^cache_[a-z_]+_tokens$`)

// credentialWords are parts of a name that suggest a credential.
var credentialWords = []string{"token", "secret", "password", "passwd", "apikey", "api_key", "authorization", "auth", "bearer", "credential", "cookie", "session_key", "private_key"}

// credentialName reports whether the JSON key or Go field name k looks like
// it holds a credential.
func credentialName(k string) bool {
	k = snake(k)
	if usageKey.MatchString(k) {
		return false
	}
	squashed := strings.NewReplacer("_", "", "-", "").Replace(k)
	for _, w := range credentialWords {
		if strings.Contains(k, w) || strings.Contains(squashed, strings.ReplaceAll(w, "_", "")) {
			return true
		}
	}
	return false
}

// snake turns a Go name such as CacheReadInputTokens into cache_read_input_tokens.
func snake(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) && i > 0 && unicode.IsLower(rune(name[i-1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// jsonKeys returns every object key in the JSON value v, at any depth.
func jsonKeys(v any, keys *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			*keys = append(*keys, k)
			jsonKeys(x, keys)
		}
	case []any:
		for _, x := range v {
			jsonKeys(x, keys)
		}
	}
}

// fill sets every field reachable from v to a non-zero value, so that no
// omitempty field hides from the JSON.
func fill(v reflect.Value) {
	switch {
	case v.Type() == reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf(clockStart))
		return
	case v.Type() == reflect.TypeFor[json.RawMessage]():
		v.Set(reflect.ValueOf(json.RawMessage(`{"k":1}`)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, x := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(x)
		m.SetMapIndex(k, x)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	}
}

// goFieldNames returns the names and JSON tags of every field reachable from t.
func goFieldNames(t reflect.Type, seen map[reflect.Type]bool, names *[]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] || t == reflect.TypeFor[time.Time]() {
		return
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		*names = append(*names, f.Name)
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag != "" && tag != "-" {
			*names = append(*names, tag)
		}
		goFieldNames(f.Type, seen, names)
	}
}

func TestCredentialNameDetects(t *testing.T) {
	// The checks below only mean something if these names would be caught.
	for _, k := range []string{"api_key", "APIKey", "x-api-key", "access_token", "AuthToken", "Authorization", "refresh_token", "bearer", "client_secret", "oauth", "AccessToken", "APIKey", "SessionKey"} {
		if !credentialName(k) {
			t.Errorf("credentialName(%q) = false", k)
		}
	}
	for _, k := range []string{"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "max_tokens", "budget_tokens", "signature", "model", "MaxTokens", "CacheReadInputTokens", "BudgetTokens"} {
		if credentialName(k) {
			t.Errorf("credentialName(%q) = true", k)
		}
	}
}

func TestSessionTypesHoldNoCredentials(t *testing.T) {
	var names []string
	goFieldNames(reflect.TypeFor[Session](), map[reflect.Type]bool{}, &names)
	goFieldNames(reflect.TypeFor[Info](), map[reflect.Type]bool{}, &names)
	if !slices.Contains(names, "Signature") || !slices.Contains(names, "input_tokens") {
		t.Fatalf("the type walk missed nested fields: %v", names)
	}
	for _, n := range names {
		if credentialName(n) {
			t.Errorf("a session type has a field %q that looks like a credential", n)
		}
	}

	// Every key of a Session with every field set, blocks of each type included.
	var sess Session
	fill(reflect.ValueOf(&sess).Elem())
	full := fullAssistant("e2")
	sess.Entries = append(sess.Entries, full)
	b, err := json.Marshal(sess)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var keys []string
	jsonKeys(v, &keys)
	for _, want := range []string{"system", "truncated", "hint", "cache_read_input_tokens", "signature", "request_id", "latency_ms", "stop_sequences"} {
		if !slices.Contains(keys, want) {
			t.Errorf("the filled session lacks key %q; the check would miss fields", want)
		}
	}
	for _, k := range keys {
		if credentialName(k) {
			t.Errorf("session JSON has a key %q that looks like a credential", k)
		}
	}
}

func TestJournalHoldsNoCredentials(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(fullParams())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Entry{userEntry("e1", "What is 2+2?"), fullAssistant("e2"),
		{ID: "e3", Kind: KindError, Error: &ErrorInfo{Status: 401, Type: "authentication_error", Message: "invalid x-api-key", Hint: "check your API key"}}} {
		if err := s.Append(sess, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetTitle(sess, TitleFrom("What is 2+2?")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(s.path(sess.ID))
	if err != nil {
		t.Fatal(err)
	}
	// The error entry quotes the server's message; only that may mention a key.
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	secretLike := regexp.MustCompile(`(?i)bearer|x-api-key|sk-ant-|sk-[a-z0-9]{20,}|"authorization"`)
	for i, l := range lines {
		if i == 3 {
			continue
		}
		if m := secretLike.FindString(l); m != "" {
			t.Errorf("journal line %d holds %q", i+1, m)
		}
	}
	var v any
	keys := []string{}
	for _, l := range lines {
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		jsonKeys(v, &keys)
	}
	for _, k := range keys {
		if credentialName(k) {
			t.Errorf("journal has a key %q that looks like a credential", k)
		}
	}
}
