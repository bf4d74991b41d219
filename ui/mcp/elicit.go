package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/sanitize"
)

// maxFields bounds the fields of a form a server asks the user to fill.
const maxFields = 32

// Elicitation is a server's request for input from the user
// (elicitation/create, form mode): a message and a form of Fields. The
// front end answers it once, with Accept, Decline or Cancel; the server
// waits until then, or until its request ends (Done): the server cancels
// it, or the requests of muse's that allowed it end (see asking.go).
type Elicitation struct {
	Server  string
	Message string // sanitized
	Fields  []Field
	schema  *jsonschema.Resolved
	reply   chan *sdk.ElicitResult
	done    <-chan struct{}
	// callEnded is set, before done is closed, when muse answered cancel
	// because its requests to the server ended.
	callEnded bool
}

// Field is one field of an Elicitation's form, from the schema's
// properties (all sanitized).
type Field struct {
	Name, Title, Description string
	// Type is "string", "number", "integer", "boolean", or "array" (of
	// Options, several chosen).
	Type     string
	Format   string   // of a string: email, uri, date or date-time
	Options  []string // the values an enum allows, in order
	Labels   []string // what to show of each option (its title, or itself)
	Required bool
	// Default is the default value written as the form shows it.
	Default string
}

// Done is closed when the server no longer waits for the answer: it was
// answered, the server cancelled it, or muse's requests to the server
// ended, when muse answered cancel (CallEnded).
func (e *Elicitation) Done() <-chan struct{} { return e.done }

// CallEnded reports, once Done is closed, whether muse closed the request
// itself, answering cancel, because its requests to the server ended
// (the call finished, or was cancelled with the turn).
func (e *Elicitation) CallEnded() bool {
	select {
	case <-e.done:
		return e.callEnded
	default:
		return false
	}
}

// Decline answers that the user declined to give the input.
func (e *Elicitation) Decline() { e.answer(&sdk.ElicitResult{Action: "decline"}) }

// Cancel answers that the user dismissed the form without a choice.
func (e *Elicitation) Cancel() { e.answer(&sdk.ElicitResult{Action: "cancel"}) }

// answer sends r, and reports whether the server still waited for it.
func (e *Elicitation) answer(r *sdk.ElicitResult) bool {
	select {
	case <-e.done:
		return false
	default:
	}
	select {
	case e.reply <- r:
	default: // answered already
	}
	return true
}

// Accept converts the typed values (by field name, as the form shows
// them: "" for none) to the schema's types, validates them against it,
// and sends them; an error says what is wrong, and nothing is sent.
func (e *Elicitation) Accept(typed map[string]string) error {
	content := map[string]any{}
	for _, f := range e.Fields {
		v := strings.TrimSpace(typed[f.Name])
		if v == "" {
			if f.Required {
				return fmt.Errorf("%s is required", f.label())
			}
			continue
		}
		val, err := f.parse(v)
		if err != nil {
			return fmt.Errorf("%s: %v", f.label(), err)
		}
		content[f.Name] = val
	}
	if err := e.schema.Validate(content); err != nil {
		return fmt.Errorf("the answer does not fit the server's form: %v", sanitize.Line(err.Error()))
	}
	if !e.answer(&sdk.ElicitResult{Action: "accept", Content: content}) {
		return fmt.Errorf("MCP server %s no longer waits for this form: nothing was sent", e.Server)
	}
	return nil
}

func (f Field) label() string { return cmpOr(f.Title, f.Name) }

// parse converts a typed value to the field's type, checking its format.
func (f Field) parse(v string) (any, error) {
	switch f.Type {
	case "boolean":
		switch strings.ToLower(v) {
		case "true", "yes", "y", "on":
			return true, nil
		case "false", "no", "n", "off":
			return false, nil
		}
		return nil, errors.New("type yes or no")
	case "integer":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, errors.New("type a whole number")
		}
		return n, nil
	case "number":
		n, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, errors.New("type a number")
		}
		return n, nil
	case "array":
		var out []any
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, f.option(p))
			}
		}
		return out, nil
	}
	if len(f.Options) > 0 {
		return f.option(v), nil
	}
	switch f.Format {
	case "email":
		if _, err := mail.ParseAddress(v); err != nil || strings.ContainsAny(v, "<> ") {
			return nil, errors.New("type an email address, such as ann@example.com")
		}
	case "uri":
		if u, err := url.Parse(v); err != nil || u.Scheme == "" {
			return nil, errors.New("type a URL with its scheme, such as https://example.com")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			return nil, errors.New("type a date as YYYY-MM-DD")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, v); err != nil {
			return nil, errors.New("type a date and time as 2006-01-02T15:04:05Z")
		}
	}
	return v, nil
}

// option returns the value of the option shown as label (its label or
// itself).
func (f Field) option(label string) string {
	if i := slices.Index(f.Labels, label); i >= 0 {
		return f.Options[i]
	}
	return label
}

// newElicitation reads a server's form request; an error says why muse
// cannot show it.
func newElicitation(server string, p *sdk.ElicitParams, done <-chan struct{}) (*Elicitation, error) {
	if p == nil {
		return nil, errors.New("no request")
	}
	if p.Mode != "" && p.Mode != "form" {
		return nil, fmt.Errorf("muse shows forms only, not %q requests", p.Mode)
	}
	raw, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		return nil, err
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("its form's schema: %v", err)
	}
	resolved, err := schema.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("its form's schema: %v", err)
	}
	e := &Elicitation{Server: server, Message: sanitize.Plain(cut(p.Message, 2000)), schema: resolved, reply: make(chan *sdk.ElicitResult, 1), done: done}
	names := make([]string, 0, len(schema.Properties))
	for n := range schema.Properties {
		names = append(names, n)
	}
	// The order the server wrote them in is lost (the SDK reads the schema
	// into a map): the required fields come first, then the others, each
	// by name.
	sort.Slice(names, func(i, j int) bool {
		ri, rj := slices.Contains(schema.Required, names[i]), slices.Contains(schema.Required, names[j])
		if ri != rj {
			return ri
		}
		return names[i] < names[j]
	})
	if len(names) > maxFields {
		return nil, fmt.Errorf("its form has %d fields, more than the %d muse shows", len(names), maxFields)
	}
	for _, n := range names {
		ps := schema.Properties[n]
		if ps == nil {
			continue
		}
		f := Field{Name: sanitize.Line(n), Title: sanitize.Line(cut(ps.Title, 200)), Description: sanitize.Line(cut(ps.Description, 500)),
			Type: cmpOr(ps.Type, "string"), Format: ps.Format, Required: slices.Contains(schema.Required, n)}
		opts := ps
		if f.Type == "array" && ps.Items != nil {
			opts = ps.Items
		}
		for _, v := range opts.Enum {
			f.Options = append(f.Options, fmt.Sprint(v))
		}
		for _, alt := range append(slices.Clone(opts.OneOf), opts.AnyOf...) {
			if alt != nil && alt.Const != nil {
				f.Options = append(f.Options, fmt.Sprint(*alt.Const))
				f.Labels = append(f.Labels, sanitize.Line(cmpOr(alt.Title, fmt.Sprint(*alt.Const))))
			}
		}
		if len(f.Labels) != len(f.Options) {
			f.Labels = slices.Clone(f.Options)
		}
		if len(ps.Default) > 0 {
			var d any
			if json.Unmarshal(ps.Default, &d) == nil {
				f.Default = f.show(d)
			}
		}
		e.Fields = append(e.Fields, f)
	}
	return e, nil
}

// show writes a value as the form shows it.
func (f Field) show(v any) string {
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, x := range v {
			parts[i] = f.show(x)
		}
		return strings.Join(parts, ", ")
	case bool:
		if v {
			return "yes"
		}
		return "no"
	case string:
		if i := slices.Index(f.Options, v); i >= 0 {
			return f.Labels[i]
		}
		return sanitize.Line(v)
	}
	return sanitize.Line(fmt.Sprint(v))
}

// Elicitations returns the requests for input that servers send, for the
// front end to answer (see Options.Elicit); nil when muse declares no
// elicitation.
func (m *Manager) Elicitations() <-chan *Elicitation { return m.elicit }

// elicited hands the request of the server s to the front end and waits
// for its answer, or for the request to end: the server cancels it, or
// the last of muse's requests to s ends, when it answers cancel (the form
// must not outlive them: see asking.go). It declines at once, with a
// note, a request that comes while muse has asked s nothing: the decline
// action, not cancel, since the user did not dismiss a form, muse refused
// to show one.
func (m *Manager) elicited(ctx context.Context, s *server, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	server := s.cfg.Name
	if m.opts.Declined != nil {
		msg := ""
		if req.Params != nil {
			msg = ": " + sanitize.Line(cut(req.Params.Message, 200))
		}
		m.opts.Declined(fmt.Sprintf("MCP server %s asked for input%s; declined: -p asks nothing (use the chat screen to answer)", server, msg))
		return &sdk.ElicitResult{Action: "decline"}, nil
	}
	ended, ok := m.asked(s)
	if !ok {
		return &sdk.ElicitResult{Action: "decline"}, nil
	}
	gone := make(chan struct{})
	e, err := newElicitation(server, req.Params, gone)
	if err != nil {
		return nil, fmt.Errorf("muse cannot show this request: %w", err)
	}
	defer close(gone)
	select {
	case m.elicit <- e:
	case <-ended:
		return &sdk.ElicitResult{Action: "cancel"}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case r := <-e.reply:
		return r, nil
	case <-ended:
		e.callEnded = true
		return &sdk.ElicitResult{Action: "cancel"}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
