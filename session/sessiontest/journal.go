// Package sessiontest writes session journals as a person or a sync peer
// could, for tests of what muse does with one it did not write.
package sessiontest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteImageJournal writes, into the sessions folder dir, the journal of
// the session id written by hand: a prompt, then an image turn whose
// images name paths, in order.
func WriteImageJournal(t testing.TB, dir, id string, paths ...string) {
	t.Helper()
	var images []string
	for i, p := range paths {
		q, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		images = append(images, fmt.Sprintf(`{"index":%d,"path":%s}`, i, q))
	}
	journal := `{"v":1,"type":"header","time":"2025-03-01T09:00:00Z","id":"` + id + `","created":"2025-03-01T09:00:00Z","params":{}}` + "\n" +
		`{"type":"entry","time":"2025-03-01T09:00:01Z","entry":{"id":"e1","kind":"user","text":"draw"}}` + "\n" +
		`{"type":"entry","time":"2025-03-01T09:00:02Z","entry":{"id":"e2","parent":"e1","kind":"image","image_prompt":"a fox","images":[` + strings.Join(images, ",") + `]}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(journal), 0o600); err != nil {
		t.Fatal(err)
	}
}
