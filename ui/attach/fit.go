package attach

import "muse/session"

// Fit prepares the image data, named name, for a page that embeds it: as it
// is, once its media type and size are known from its header, when side is
// 0; else, when
// its longest side is over side pixels, decoded (within the limits of an
// attachment: its pixels and the memory decoding takes are checked from its
// header first), scaled down with this package's scaler, and encoded again
// as FromBytes does. What is not a PNG, JPEG, GIF or WebP image is refused
// with a [RefusedError].
func Fit(name string, data []byte, side int) (session.File, error) {
	k, err := classify(name, data[:min(len(data), sniffBytes)], int64(len(data)))
	if err != nil {
		return session.File{}, err
	}
	if k.kind != session.AttachImage {
		return session.File{}, refuse(name, "not a PNG, JPEG, GIF or WebP image")
	}
	if side <= 0 {
		f := session.File{Attachment: session.Attachment{Name: name, Kind: k.kind, MediaType: k.mediaType, Bytes: int64(len(data))}, Data: data}
		if cfg, err := decodeConfig(k.mediaType, data); err == nil {
			f.Width, f.Height = cfg.Width, cfg.Height
		}
		return f, nil
	}
	return prepareImage(name, data, k.mediaType, session.MaxImageBytes, side, 0)
}
