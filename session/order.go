package session

import (
	"bytes"
	"slices"
	"strings"
	"time"
)

// Records are applied in the order of their times, not of their lines.
// A journal that one muse wrote has its records in that order already (a
// writer never dates a record before the one before it, see Writer.now),
// so replaying it costs one look at each time; one that only one machine
// wrote (records of an older muse name none) is applied in the order of
// its lines whatever their times, as it always was: an older muse's clock
// could go back. A journal that merge.go
// appended another copy's records to has them out of order, and is sorted
// first: the merged journal then replays as one whose records had been
// written in time order, whatever order the copies were merged in. Of two
// records with the same time, the one of the greater machine id (record.M)
// comes last, and so wins; records of the same time and machine keep the
// order of their lines.

// inTimeOrder returns lines, decoded, in the order their records apply
// (see inApplyOrder).
func inTimeOrder(lines []rawLine) []rawLine {
	return inApplyOrder(lines, func(l *rawLine) (time.Time, string, bool) {
		return l.rec.Time, l.rec.M, l.err == nil
	})
}

// inApplyOrder returns items in the order their records apply, by time
// then machine, as key tells them (ok false for an item that is not a
// record): the first item stays first (it is the header), an item that is
// not a record keeps its place after the one before it, and items of the
// same time and machine keep their order. items already in that order,
// as a journal one muse wrote is, come back as they are after one look
// at each.
func inApplyOrder[T any](items []T, key func(*T) (time.Time, string, bool)) []T {
	if len(items) < 3 {
		return items
	}
	type pos struct {
		t time.Time
		m string
		i int
	}
	ps := make([]pos, len(items)-1)
	sorted, one := true, true
	var t time.Time
	var m, first string
	seen := false
	for i := range ps {
		if kt, km, ok := key(&items[i+1]); ok {
			if kt.Before(t) || kt.Equal(t) && km < m {
				sorted = false
			}
			switch {
			case km == "": // an older muse's, which names no machine
			case !seen:
				first, seen = km, true
			case km != first:
				one = false
			}
			t, m = kt, km
		}
		ps[i] = pos{t, m, i + 1}
	}
	if sorted || one {
		// A journal only one machine wrote applies in the order it was
		// written, as it always did: a clock set back between two of
		// its records changes nothing.
		return items
	}
	slices.SortStableFunc(ps, func(a, b pos) int {
		if c := a.t.Compare(b.t); c != 0 {
			return c
		}
		return strings.Compare(a.m, b.m)
	})
	out := make([]T, 0, len(items))
	out = append(out, items[0])
	for _, p := range ps {
		out = append(out, items[p.i])
	}
	return out
}

// gitMarker reports whether line is one git leaves around a conflict it
// could not merge: both sides' records are kept between them, so a
// journal with a git conflict in it is read as the merge of both.
func gitMarker(line []byte) bool {
	for _, m := range [...]string{"<<<<<<< ", ">>>>>>> ", "||||||| "} {
		if bytes.HasPrefix(line, []byte(m)) {
			return true
		}
	}
	l := bytes.TrimRight(line, "\r\n")
	return string(l) == "=======" || string(l) == "<<<<<<<" || string(l) == ">>>>>>>" || string(l) == "|||||||"
}
