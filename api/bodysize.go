package api

import (
	"encoding/json"
	"slices"
)

// MaxRequestBytes is the largest body of a message request the service
// takes: 32 MB, counted in decimal to be safe. Validate refuses a request
// whose body, as the client encodes it, is larger.
const MaxRequestBytes = 32_000_000

// dataKey is what a base64 source's data adds to its JSON besides the
// data itself: `,"data":""` (type comes first, and is never empty).
const dataKey = len(`,"data":""`)

// bodySize returns the size in bytes of r's body as the client sends it
// (with stream true, the longer), and how much of it is the base64 data of
// image and document sources. It encodes a copy of r whose base64 sources
// hold no data, and counts each one's data by its length: base64 has no
// character JSON escapes, so the data goes out as it is. The attachments
// are not copied, only the rest of the request is encoded.
func (r *MessageRequest) bodySize() (body, sources int, err error) {
	stub := *r
	stub.Stream = true
	stub.Messages = slices.Clone(r.Messages)
	for i, m := range stub.Messages {
		copied := false // the message's blocks, before the first change
		for j, b := range m.Blocks {
			src := b.Source
			if src == nil || src.Type != SourceBase64 || src.Data == "" {
				continue
			}
			if !copied {
				stub.Messages[i].Blocks, copied = slices.Clone(m.Blocks), true
			}
			empty := *src
			empty.Data = ""
			stub.Messages[i].Blocks[j].Source = &empty
			sources += len(src.Data) + dataKey
		}
	}
	out, err := json.Marshal(&stub)
	if err != nil {
		return 0, 0, err
	}
	return len(out) + sources, sources, nil
}
