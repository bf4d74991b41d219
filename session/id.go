package session

import (
	"encoding/hex"
	"fmt"
	"io"
	"time"
)

// idTimeLayout is the time part of a session id, in UTC.
const idTimeLayout = "20060102-150405"

// maxIDLen bounds an id so that its file name stays well below the limits of
// common file systems.
const maxIDLen = 128

// newID returns an id of the form YYYYMMDD-HHMMSS-xxxxxx: the UTC time t and
// six lowercase hex digits from random.
func newID(t time.Time, random io.Reader) (string, error) {
	var b [3]byte
	if _, err := io.ReadFull(random, b[:]); err != nil {
		return "", fmt.Errorf("random id: %w", err)
	}
	return t.UTC().Format(idTimeLayout) + "-" + hex.EncodeToString(b[:]), nil
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
