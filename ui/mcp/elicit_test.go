package mcp

import (
	"strings"
	"testing"
)

// The everything server's form (elicitation/create), on each transport:
// muse declares forms, so the server offers its tool; the request comes on
// Elicitations with its fields (the required first), defaults and enum
// labels; an answer that does not fit (a bad email, a number out of range,
// no name) is refused with why, and nothing is sent; a good one reaches
// the server; a declined one too.
func TestEverythingElicitation(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			srv, _ := everything(t, "ev", tr)
			m := New([]Server{srv}, Options{Elicit: true})
			defer m.Close()
			got := evTools(t, m)
			call := got["ev__trigger-elicitation-request"]
			if call == nil {
				t.Fatalf("no elicitation tool among %d", len(got))
			}
			for _, decline := range []bool{false, true} {
				out := make(chan string, 1)
				go func() { out <- call(`{}`) }()
				e := <-m.Elicitations()
				if e.Server != "ev" || !strings.Contains(e.Message, "Please provide inputs") {
					t.Fatalf("elicitation %+v", e)
				}
				byName := map[string]Field{}
				var order []string
				for _, f := range e.Fields {
					byName[f.Name] = f
					order = append(order, f.Name)
				}
				if len(order) < 4 || order[0] != "name" || order[1] != "birthdate" || !byName["name"].Required ||
					byName["firstLine"].Default != "It was a dark and stormy night." || byName["integer"].Default != "42" ||
					byName["titledSingleSelectEnum"].Default != "Superman" || byName["email"].Format != "email" {
					t.Fatalf("fields %+v", e.Fields)
				}
				if decline {
					e.Decline()
					if o := <-out; !strings.Contains(o, "declined") {
						t.Errorf("declined: %q", o)
					}
					continue
				}
				for typed, want := range map[string]string{
					"email=nope":  "type an email address",
					"integer=500": "does not fit",
					"name=":       "String is required",
				} {
					k, v, _ := strings.Cut(typed, "=")
					answer := map[string]string{"name": "Ann", k: v}
					if err := e.Accept(answer); err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("%s: %v, want %q", typed, err, want)
					}
				}
				if err := e.Accept(map[string]string{"name": "Ann Lee", "check": "yes", "email": "ann@example.com", "integer": "7", "titledSingleSelectEnum": "Wonder Woman", "untitledMultipleSelectEnum": "Piano, Drums"}); err != nil {
					t.Fatal(err)
				}
				o := <-out
				for _, want := range []string{"User provided the requested information", "- Name: Ann Lee", "- Agreed to terms: true", "- Email: ann@example.com", "- Favorite Integer: 7", `"hero-3"`, `"Piano"`} {
					if !strings.Contains(o, want) {
						t.Errorf("result lacks %q:\n%s", want, o)
					}
				}
			}
		})
	}
}

// With Declined set (-p), every request for input is declined at once,
// with a note that says which server asked and why muse declined.
func TestEverythingElicitationDeclinedInPrint(t *testing.T) {
	srv, _ := everything(t, "ev", "stdio")
	var notes []string
	m := New([]Server{srv}, Options{Elicit: true, Declined: func(n string) { notes = append(notes, n) }})
	defer m.Close()
	out := evTools(t, m)["ev__trigger-elicitation-request"](`{}`)
	if !strings.Contains(out, "declined") {
		t.Errorf("result %q", out)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "MCP server ev asked for input: Please provide inputs") || !strings.Contains(notes[0], "-p asks nothing") {
		t.Errorf("notes %q", notes)
	}
}
