package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// The everything server's resources, on each transport: listed as
// @SERVER:URI mentions (Status too), found in a prompt's words, read as
// their text, and completed from the start of a mention.
func TestEverythingResources(t *testing.T) {
	const doc = "@ev:demo://resource/static/document/architecture.md"
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			srv, _ := everything(t, "ev", tr)
			m := New([]Server{srv}, Options{})
			defer m.Close()
			evTools(t, m)
			var mentions []string
			for _, r := range m.Resources() {
				mentions = append(mentions, r.Mention)
			}
			if !slices.Contains(mentions, doc) {
				t.Fatalf("resources %q", mentions)
			}
			if st := m.Status()[0]; !slices.Contains(st.Resources, doc) {
				t.Errorf("Status resources %d", len(st.Resources))
			}
			found := m.MentionedResources("summarize " + doc + ", please; @ev:nope and @someone")
			if len(found) != 1 || found[0].Mention != doc || found[0].FileName() != doc {
				t.Fatalf("mentioned %+v", found)
			}
			data, err := m.ReadResource(context.Background(), found[0])
			if err != nil || !strings.Contains(string(data), "Architecture") {
				t.Errorf("read %.80q, %v", data, err)
			}
			got := CompleteResource(m.Resources(), "summarize @ev:demo://resource/static/document/arch")
			if !slices.Equal(got, []string{"summarize " + doc + " "}) {
				t.Errorf("completions %q", got)
			}
		})
	}
}
