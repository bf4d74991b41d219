package index

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"muse/session"
)

// A session's card is what a session list shows of it, in one column of
// its row, so that a list of many sessions is one value to read (SQLite's
// group_concat of the cards) rather than a row of seven columns each:
// through database/sql, a column costs more than the bytes it holds. A
// card is its fields as netstrings, "length:bytes", one after another: the
// id, the title, the creation and update times (nanoseconds since 1970),
// the number of messages, the model and why the journal is damaged.

// cardOf returns the card of the session in describes.
func cardOf(in session.Info) string {
	var b strings.Builder
	for _, f := range []string{in.ID, in.Title, strconv.FormatInt(nanos(in.Created), 10), strconv.FormatInt(nanos(in.Updated), 10),
		strconv.Itoa(in.Messages), in.Model, in.Damaged} {
		b.WriteString(strconv.Itoa(len(f)))
		b.WriteByte(':')
		b.WriteString(f)
	}
	return b.String()
}

// errCard is a card that cannot be read: the index is damaged.
var errCard = errors.New("malformed session card")

// parseCards returns the sessions of cards, concatenated, about n of them.
func parseCards(cards string, n int) ([]session.Info, error) {
	out := make([]session.Info, 0, n)
	var f [7]string
	for cards != "" {
		for i := range f {
			colon := strings.IndexByte(cards, ':')
			if colon < 0 {
				return nil, errCard
			}
			n, err := strconv.Atoi(cards[:colon])
			if err != nil || n < 0 || n > len(cards)-colon-1 {
				return nil, errCard
			}
			f[i], cards = cards[colon+1:colon+1+n], cards[colon+1+n:]
		}
		created, err1 := strconv.ParseInt(f[2], 10, 64)
		updated, err2 := strconv.ParseInt(f[3], 10, 64)
		messages, err3 := strconv.Atoi(f[4])
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, errCard
		}
		if !session.ValidID(f[0]) {
			continue // not written by muse: the journals have no such id
		}
		out = append(out, session.Info{ID: f[0], Title: f[1], Created: time.Unix(0, created).UTC(), Updated: time.Unix(0, updated).UTC(),
			Messages: messages, Model: f[5], Damaged: f[6]})
	}
	return out, nil
}
