package session

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// titled creates sessions with the given titles and returns their ids.
func titled(t *testing.T, s *Store, titles ...string) []string {
	t.Helper()
	var out []string
	for _, title := range titles {
		sess, err := s.Create(Params{})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.SetTitle(sess, title); err != nil {
			t.Fatal(err)
		}
		out = append(out, sess.ID)
	}
	return out
}

func TestFind(t *testing.T) {
	s, _ := newTestStore(t)
	ids := titled(t, s, "Go generics", "Rust lifetimes", "go", "Shell tricks", "Go modules")
	// Two ids that share a prefix no other id has.
	for _, id := range []string{"20240101-000000-aaa111", "20240101-000000-aaa222"} {
		lines := journalLines(t, s, ids[0])
		writeJournal(t, s, id, lines[:1], "")
	}
	if err := os.WriteFile(s.path("20240202-000000-dmg000"), []byte("junk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query, want string
	}{
		{ids[1], ids[1]},                       // exact id
		{ids[3][:len(ids[3])-1], ids[3]},       // unique prefix
		{"20240202", "20240202-000000-dmg000"}, // damaged journals match by id
		{"GO", ids[2]},                         // exact title, ignoring case, though others contain it
		{"  rust  ", ids[1]},                   // unique substring, trimmed
		{"TRICKS", ids[3]},
		{"modules", ids[4]},
	} {
		info, err := s.Find(tc.query)
		if err != nil || info.ID != tc.want {
			t.Errorf("Find(%q) = %s, %v; want %s", tc.query, info.ID, err, tc.want)
		}
	}
	for _, q := range []string{"python", "", "  ", "junk", "damaged"} {
		if _, err := s.Find(q); !errors.Is(err, ErrNotFound) {
			t.Errorf("Find(%q) = %v, want ErrNotFound", q, err)
		}
	}
	if _, err := s.Find("python"); err == nil || !strings.Contains(err.Error(), `"python"`) {
		t.Errorf("error %v does not name the query", err)
	}
	_, err := s.Find("20240101-000000-aaa")
	if !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "20240101-000000-aaa222 (untitled), 20240101-000000-aaa111 (untitled)") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	_, err = s.Find("o")
	if !errors.Is(err, ErrAmbiguous) {
		t.Fatalf("ambiguous title: %v", err)
	}
	for _, want := range []string{ids[4] + " (Go modules)", ids[0] + " (Go generics)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
}

func TestFindNamesAtMostFive(t *testing.T) {
	s, _ := newTestStore(t)
	var titles []string
	for i := range 8 {
		titles = append(titles, fmt.Sprintf("Notes %d", i))
	}
	titled(t, s, titles...)
	_, err := s.Find("notes")
	if !errors.Is(err, ErrAmbiguous) || strings.Count(err.Error(), "(Notes ") != 5 || !strings.HasSuffix(err.Error(), "and 3 more") {
		t.Errorf("error %v; want 5 candidates and 3 more", err)
	}
	if !strings.Contains(err.Error(), "(Notes 7), ") {
		t.Errorf("error %v; want the newest first", err)
	}
}
