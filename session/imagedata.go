package session

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"muse/api"
)

// errBadBase64 is the error of data that is not base64.
var errBadBase64 = errors.New("the image data is not valid base64")

// DecodeB64 decodes an image sent as base64 (the b64_json of an image
// result): the standard alphabet, or the URL-safe one, with or without
// padding, with any spaces and line breaks, and with or without a
// "data:image/png;base64," prefix. Data that would decode to more than max
// bytes is refused before it is decoded, with an error that matches
// api.ErrTooLarge.
func DecodeB64(s string, max int) ([]byte, error) {
	s = strings.TrimSpace(s)
	if len(s) >= 5 && strings.EqualFold(s[:5], "data:") {
		_, rest, ok := strings.Cut(s, ",")
		if !ok || !strings.HasSuffix(strings.ToLower(s[:len(s)-len(rest)-1]), ";base64") {
			return nil, errors.New("the image data is a data: URL that is not base64")
		}
		s = rest
	}
	limit := base64.StdEncoding.EncodedLen(max)
	if len(s) > limit+limit/8 { // room for line breaks
		return nil, tooLargeB64(max)
	}
	s = stripSpace(s)
	if len(s) > limit {
		return nil, tooLargeB64(max)
	}
	s = strings.TrimRight(s, "=")
	enc := base64.RawStdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.RawURLEncoding
	}
	data, err := enc.DecodeString(s)
	if err != nil || len(data) == 0 {
		return nil, errBadBase64
	}
	return data, nil
}

// tooLargeB64 is the error of base64 data over max decoded bytes.
type tooLargeB64 int

func (max tooLargeB64) Error() string {
	if max%(1<<20) == 0 {
		return fmt.Sprintf("the image data is larger than %d MiB", max>>20)
	}
	return fmt.Sprintf("the image data is larger than %d bytes", max)
}

func (tooLargeB64) Is(target error) bool { return target == api.ErrTooLarge }

// stripSpace returns s without ASCII spaces, tabs and line breaks.
func stripSpace(s string) string {
	if !strings.ContainsAny(s, " \t\r\n\f\v") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\n', '\f', '\v':
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
