package mcp

import (
	"context"
	"fmt"
	"path"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/api"
	"muse/ui/sanitize"
)

// maxResources is how many resources of one server are listed.
const maxResources = 256

// Resource is a server's resource, attached with the mention
// @SERVER:URI: the data a completion menu lists.
type Resource struct {
	// Mention is "@SERVER:URI".
	Mention     string
	Server, URI string
	Name        string // sanitized
	MIMEType    string
}

// listResources lists the resources of sess when its server offers some,
// at most maxResources of them from at most maxPages pages, with URIs a
// mention can hold and show as they are (word).
func listResources(ctx context.Context, sess *sdk.ClientSession) []*sdk.Resource {
	if res := sess.InitializeResult(); res == nil || res.Capabilities == nil || res.Capabilities.Resources == nil {
		return nil
	}
	page := func(cursor string) ([]*sdk.Resource, string, error) {
		res, err := sess.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		return res.Resources, res.NextCursor, nil
	}
	return listPages(page, maxResources, func(r *sdk.Resource) bool { return r != nil && word(r.URI, maxURI) })
}

// Resources returns the resources of the ready servers, in the
// configuration's order.
func (m *Manager) Resources() []Resource {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Resource
	for _, s := range m.srv {
		if s.state != Ready {
			continue
		}
		for _, r := range s.resources {
			out = append(out, Resource{Mention: "@" + s.cfg.Name + ":" + r.URI, Server: s.cfg.Name, URI: r.URI,
				Name: sanitize.Line(cmpOr(r.Name, r.URI)), MIMEType: r.MIMEType})
		}
	}
	return out
}

// MentionedResources returns the resources the words of text mention as
// @SERVER:URI, once each (a word may end in the punctuation that ends a
// sentence).
func (m *Manager) MentionedResources(text string) []Resource {
	var out []Resource
	all := m.Resources()
	for _, w := range strings.Fields(text) {
		w = strings.TrimRight(w, ".,;!?)\"'")
		for _, r := range all {
			if r.Mention == w && !containsResource(out, r) {
				out = append(out, r)
			}
		}
	}
	return out
}

func containsResource(rs []Resource, r Resource) bool {
	for _, o := range rs {
		if o.Mention == r.Mention {
			return true
		}
	}
	return false
}

// FileName is the name r is attached by: its mention, with the extension
// of its type when its URI has none, so that it is attached as what it is.
func (r Resource) FileName() string {
	if path.Ext(r.URI) != "" {
		return r.Mention
	}
	return r.Mention + extFor(r.MIMEType, strings.HasPrefix(r.MIMEType, "text/"))
}

// ReadResource reads r from its server: its text, or its bytes.
func (m *Manager) ReadResource(ctx context.Context, r Resource) ([]byte, error) {
	sess, done := m.beginNamed(r.Server)
	defer done()
	if sess == nil {
		return nil, fmt.Errorf("the MCP server %s is not running", r.Server)
	}
	ctx, cancel := context.WithTimeout(ctx, m.opts.CallTimeout)
	defer cancel()
	res, err := sess.ReadResource(ctx, &sdk.ReadResourceParams{URI: r.URI})
	if err != nil {
		return nil, fmt.Errorf("the MCP server %s: %s: %w", r.Server, sanitize.Line(r.URI), err)
	}
	if len(res.Contents) == 0 || res.Contents[0] == nil {
		return nil, fmt.Errorf("the MCP server %s sent nothing for %s", r.Server, sanitize.Line(r.URI))
	}
	c := res.Contents[0]
	if c.Text != "" {
		return []byte(c.Text), nil
	}
	return c.Blob, nil
}

// extFor is the extension of a file of mediaType, so that it is attached
// as what it is.
func extFor(mediaType string, text bool) string {
	if ext := api.MediaExt(mediaType); ext != "" {
		return ext
	}
	switch mediaType {
	case "text/markdown":
		return ".md"
	case "application/json":
		return ".json"
	}
	if text {
		return ".txt"
	}
	return ""
}

// CompleteResource returns the completions of value whose last word, at
// its end, is the start of a resource's mention ("@ev:" gives every
// resource of ev): value with that word completed, each followed by a
// space. It is data for a completion menu: no I/O.
func CompleteResource(resources []Resource, value string) []string {
	i := strings.LastIndexAny(value, " \t\n")
	word := value[i+1:]
	if !strings.HasPrefix(word, "@") || !strings.Contains(word, ":") {
		return nil
	}
	var out []string
	for _, r := range resources {
		if strings.HasPrefix(r.Mention, word) {
			out = append(out, value[:i+1]+r.Mention+" ")
		}
	}
	return out
}
