package index

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"muse/session"
)

// A session whose journal is dated far ahead (a synced one, written to
// come first) is listed by the index, as the picker shows it, after every
// other, marked Ahead; its date, which the index holds as 2262-04-11 at
// most, shows as in the future.
func TestListPutsSessionsDatedAheadLast(t *testing.T) {
	store := newStore(t)
	var ids []string
	for range 3 {
		w := session.NewWriter(store, session.Params{Model: "m"})
		if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: "hi"}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.ID())
	}
	// The first session's records, dated in 2300.
	path := filepath.Join(store.Dir(), ids[0]+".jsonl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data = regexp.MustCompile(`"\d{4}-(\d\d-\d\dT)`).ReplaceAll(data, []byte(`"2300-$1`))
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	ix := openCurrent(t, store)
	now := time.Now()
	ix.now = func() time.Time { return now }
	want := []string{ids[2], ids[1], ids[0]}
	for name, list := range map[string]func() ([]session.Info, error){"List": ix.List, "ListCurrent": ix.ListCurrent} {
		infos, err := list()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, in := range infos {
			got = append(got, in.ID)
		}
		if !slices.Equal(got, want) || !infos[2].Ahead || infos[0].Ahead || infos[1].Ahead {
			t.Errorf("%s: %q, want %q; ahead %v %v %v", name, got, want, infos[0].Ahead, infos[1].Ahead, infos[2].Ahead)
		}
		if shown := infos[2].UpdatedText("2006-01-02"); shown != "2262-04-11 (in the future)" && shown != "2262-04-12 (in the future)" {
			t.Errorf("%s: shown as %q", name, shown)
		}
	}
}
