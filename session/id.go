package session

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"
)

// Ids are made to be unique across machines, so that a session continued
// on two machines, or two sessions begun on two machines, never clash when
// their journals are merged (merge.go):
//
//   - a session id is its UTC creation time and 64 random bits,
//     YYYYMMDD-HHMMSS-xxxxxxxxxxxxxxxx (an older muse used 24 bits: those
//     ids stay valid);
//   - an entry id is "e", 10 characters of its time in milliseconds and 13
//     of 64 random bits, in an alphabet whose order is that of the values,
//     so ids sort by time (an older muse counted, "e1", "e2", …: those stay
//     valid and are never made again);
//   - an image file adds 48 random bits to its turn and index (images.go).

// idTimeLayout is the time part of a session id, in UTC.
const idTimeLayout = "20060102-150405"

// maxIDLen bounds an id so that its file name stays well below the limits of
// common file systems.
const maxIDLen = 128

// newID returns a session id: the UTC time t, then 16 lowercase hex digits
// (64 bits) from random.
func newID(t time.Time, random io.Reader) (string, error) {
	var b [8]byte
	if _, err := io.ReadFull(random, b[:]); err != nil {
		return "", fmt.Errorf("random id: %w", err)
	}
	return t.UTC().Format(idTimeLayout) + "-" + hex.EncodeToString(b[:]), nil
}

// sortable is Crockford's base 32 in lower case: its order is that of the
// values, so fixed-width numbers written in it sort as the numbers do.
const sortable = "0123456789abcdefghjkmnpqrstvwxyz"

// newEntryID returns an entry id: "e", the time t in milliseconds (10
// digits of sortable) and 64 bits from random (13 digits).
func newEntryID(t time.Time, random io.Reader) (string, error) {
	var b [8]byte
	if _, err := io.ReadFull(random, b[:]); err != nil {
		return "", fmt.Errorf("random entry id: %w", err)
	}
	var out [24]byte
	out[0] = 'e'
	ms := uint64(max(t.UnixMilli(), 0)) & (1<<50 - 1)
	for i := 10; i >= 1; i-- {
		out[i] = sortable[ms&31]
		ms >>= 5
	}
	r := binary.BigEndian.Uint64(b[:])
	for i := 23; i >= 11; i-- {
		out[i] = sortable[r&31]
		r >>= 5
	}
	return string(out[:]), nil
}

// counted reports whether id is an entry id an older muse counted, "e7":
// two machines made the same ones.
func counted(id string) bool {
	return len(id) > 1 && id[0] == 'e' && strings.Trim(id[1:], "0123456789") == ""
}

// ValidID reports whether id may name a session's journal, as validID
// does: what reads ids from elsewhere (the index) checks them with it.
func ValidID(id string) bool { return validID(id) }

// validID reports whether id may name a journal: 1 to maxIDLen characters of
// [0-9A-Za-z_-]. Such an id has no path separator, no dot and cannot escape
// the store's directory, so it is checked before any file is touched.
func validID(id string) bool {
	if id == "" || len(id) > maxIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// idTime returns the creation time encoded in an id made by newID.
func idTime(id string) (time.Time, bool) {
	if len(id) < len(idTimeLayout) {
		return time.Time{}, false
	}
	t, err := time.Parse(idTimeLayout, id[:len(idTimeLayout)])
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}
