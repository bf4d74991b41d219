package index

import (
	"math"
	"testing"
	"time"

	"muse/session"
)

// An image prompt is a turn of its own, and a hit on it says "image";
// the parts of an entry are told apart in its snippet; a time outside
// what nanoseconds hold stays at the nearest end instead of wrapping.
func TestImageTurnsAndTimes(t *testing.T) {
	far := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	sess := &session.Session{All: []session.Entry{
		{ID: "e1", Kind: session.KindImage, ImagePrompt: "a zebra", Images: []session.Image{{RevisedPrompt: "a zebra on a beach"}}, Time: far},
		{ID: "e2", Parent: "e1", Kind: session.KindUser, Text: "and now?"},
		{ID: "e3", Parent: "e2", Kind: session.KindImage, ImagePrompt: "a lighthouse"},
	}}
	sess.Entries = sess.All
	rows := rowsOf(sess)
	for i, want := range []int{1, 2, 3} {
		if rows[i].turn != want {
			t.Errorf("entry %d: turn %d, want %d", i+1, rows[i].turn, want)
		}
	}
	if rows[0].time != math.MaxInt64 || nanos(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)) != math.MinInt64 {
		t.Errorf("far times: %d", rows[0].time)
	}
	if rows[0].text != "a zebra\na zebra on a beach" {
		t.Errorf("text %q", rows[0].text)
	}
	if l := (Hit{Kind: session.KindImage, Role: RoleUser}).Label(); l != "image" {
		t.Errorf("label %q", l)
	}
}
