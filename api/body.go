package api

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// body is a request's JSON body, kept as parts that a reader sends one
// after the other: for a message request, the request encoded with each
// base64 source's data left out, and those data strings themselves. The
// attachments, megabytes of base64, go out from the request's own
// strings: they are neither copied into a body built whole nor copied
// again by encoding/json's check of each block's MarshalJSON.
type body struct {
	parts []string
	size  int64
}

// reader returns a reader of the whole body, from its start.
func (b *body) reader() io.Reader {
	rs := make([]io.Reader, len(b.parts))
	for i, p := range b.parts {
		rs[i] = strings.NewReader(p)
	}
	return io.MultiReader(rs...)
}

// encodeBody encodes v, a request: a MessageRequest in parts (see body),
// anything else whole.
func encodeBody(v any) (*body, error) {
	if r, ok := v.(MessageRequest); ok {
		return r.encodeBody()
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &body{parts: []string{string(out)}, size: int64(len(out))}, nil
}

// encodeBody encodes r with each base64 source's data replaced by a
// marker of its own (a random nonce and its number, which nothing else in
// the body can hold), then cuts the encoding at each marker and puts the
// source's data there.
func (r MessageRequest) encodeBody() (*body, error) {
	var nonce [12]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	tag := "muse-source-" + hex.EncodeToString(nonce[:]) + "-"
	stub := r
	stub.Messages = slices.Clone(r.Messages)
	var data []string
	for i, m := range stub.Messages {
		copied := false
		for j, b := range m.Blocks {
			src := b.Source
			if src == nil || src.Type != SourceBase64 || src.Data == "" {
				continue
			}
			if !copied {
				stub.Messages[i].Blocks, copied = slices.Clone(m.Blocks), true
			}
			marked := *src
			marked.Data = fmt.Sprintf("%s%d", tag, len(data))
			stub.Messages[i].Blocks[j].Source = &marked
			data = append(data, src.Data)
		}
	}
	out, err := json.Marshal(&stub)
	if err != nil {
		return nil, err
	}
	b := &body{size: int64(len(out))}
	rest := out
	for i, d := range data {
		marker := fmt.Sprintf("%s%d\"", tag, i) // the quote: marker 1 is not the start of marker 10
		at := bytes.Index(rest, []byte(marker))
		if at < 0 {
			return nil, fmt.Errorf("the data of source %d is not in the encoded request", i)
		}
		b.parts = append(b.parts, string(rest[:at]), d)
		b.size += int64(len(d) - len(marker) + 1)
		rest = rest[at+len(marker)-1:]
	}
	b.parts = append(b.parts, string(rest))
	return b, nil
}
