package session

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTextFileRecordedAsDocument checks that a text file attached now is
// recorded as a plain-text document (AsSentNow), and that the record reads
// back the same; an old journal's text file, without it, is sent as it was
// then (ui/engine's TestTextFileSentAsDocument checks what each sends).
func TestTextFileRecordedAsDocument(t *testing.T) {
	var old Entry
	if err := json.Unmarshal([]byte(`{"id":"a","kind":"user","text":"read","attachments":[
		{"name":"n.txt","kind":"text","media_type":"text/plain","sha256":"`+strings.Repeat("a", 64)+`","bytes":10}]}`), &old); err != nil {
		t.Fatal(err)
	}
	if old.Attachments[0].Document {
		t.Error("an old journal's text file reads as a document")
	}
	now := old.Attachments[0].AsSentNow()
	raw, err := json.Marshal(now)
	if err != nil {
		t.Fatal(err)
	}
	var back Attachment
	if json.Unmarshal(raw, &back) != nil || !back.Document || !strings.Contains(string(raw), `"document":true`) {
		t.Errorf("the record %s lost the document form", raw)
	}
	if (Attachment{Kind: AttachImage}).AsSentNow().Document {
		t.Error("an image was marked as a text document")
	}
}
