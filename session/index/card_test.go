package index

import (
	"reflect"
	"testing"
	"time"

	"muse/session"
)

// Cards carry every field of a session as it was, whatever its text, and
// a damaged run of cards is an error, not a wrong list.
func TestCards(t *testing.T) {
	infos := []session.Info{
		{ID: "20250101-000000-abcd", Title: "12:34 a title: with colons", Created: time.Unix(0, 1).UTC(), Updated: time.Unix(1700000000, 5).UTC(), Messages: 3, Model: "claude"},
		{ID: "20250101-000001-abcd", Title: "", Created: time.Unix(0, 0).UTC(), Updated: time.Unix(0, 0).UTC()},
		{ID: "20250101-000002-abcd", Title: "東京 \x1b[31mred\n0:", Created: time.Unix(2, 0).UTC(), Updated: time.Unix(3, 0).UTC(), Damaged: "bad record", Model: "5:x"},
	}
	var all string
	for _, in := range infos {
		all += cardOf(in)
	}
	got, err := parseCards(all, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, infos) {
		t.Fatalf("read back\n%+v\nwant\n%+v", got, infos)
	}
	if got, err := parseCards("", 0); err != nil || len(got) != 0 {
		t.Fatalf("no cards read as %+v, %v", got, err)
	}
	for _, bad := range []string{all[:len(all)-1], "x" + all, "99:abc", "-1:", "3:abc"} {
		if _, err := parseCards(bad, 3); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}

// What the index holds is not trusted: an id no journal could have, or a
// role muse never writes, put there by another program, never comes out.
func TestTamperedIndexValues(t *testing.T) {
	_, ix := seeded(t)
	bad := "\x1b]52;c;SGVsbG8=\a"
	if _, err := ix.db.Exec("UPDATE entries SET role = ?", bad); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.db.Exec("UPDATE sessions SET card = ? WHERE id = (SELECT min(id) FROM sessions)", cardOf(session.Info{ID: bad, Title: "t"})); err != nil {
		t.Fatal(err)
	}
	infos, err := ix.List()
	if err != nil || len(infos) != 2 {
		t.Fatalf("listed %d, %v; want the 2 untouched", len(infos), err)
	}
	res, err := ix.Search(Query{Text: "zebra"})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("%+v, %v", res, err)
	}
	for _, h := range res.Hits {
		if h.Role != RoleOther {
			t.Errorf("role %q", h.Role)
		}
	}
}
