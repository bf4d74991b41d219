// Package images fetches the images an image request returned: base64 data
// is decoded, and URLs are downloaded at once (such links expire), never
// with muse's credentials. The chat screen and the one-shot command line
// both fetch through it. It draws nothing.
package images

import (
	"context"
	"errors"

	"muse/api"
	"muse/session"
)

// Limits of what is read and decoded.
const (
	MaxBytes  = 64 << 20
	MaxSide   = 8192
	MaxPixels = 40_000_000
)

// Fetch returns the bytes of the image d. progress, which may be nil,
// reports a download as it goes.
func Fetch(ctx context.Context, c *api.Client, d api.ImageData, progress func(done, total int64)) ([]byte, error) {
	if d.B64JSON != "" {
		return session.DecodeB64(d.B64JSON)
	}
	if d.URL == "" {
		return nil, errors.New("the server sent neither a URL nor data for this image")
	}
	return c.Download(ctx, d.URL, MaxBytes, progress)
}
