package api

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// body is a request's JSON body, kept as parts that a reader sends one
// after the other: for a message request, the request encoded with each
// base64 source's data left out, and those data themselves. The
// attachments, megabytes of base64, go out from the request's own
// strings, or, for a PDF, encoded from its bytes as they are read (see
// Source): they are neither copied into a body built whole nor copied
// again by encoding/json's check of each block's MarshalJSON.
type body struct {
	parts []bodyPart
	size  int64
}

// bodyPart is a part of a body: text, or bytes sent as their base64.
type bodyPart struct {
	text string
	raw  []byte // when not nil, the part is its base64 (text is empty)
}

// len is the part's length as sent.
func (p bodyPart) len() int {
	if p.raw != nil {
		return base64.StdEncoding.EncodedLen(len(p.raw))
	}
	return len(p.text)
}

// reader returns a reader of the whole body, from its start.
func (b *body) reader() io.Reader {
	rs := make([]io.Reader, len(b.parts))
	for i, p := range b.parts {
		if p.raw != nil {
			rs[i] = &base64Reader{src: p.raw}
		} else {
			rs[i] = strings.NewReader(p.text)
		}
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
	return &body{parts: []bodyPart{{text: string(out)}}, size: int64(len(out))}, nil
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
	var data []bodyPart
	for i, m := range stub.Messages {
		copied := false
		for j, b := range m.Blocks {
			src := b.Source
			if src == nil || src.Type != SourceBase64 || src.dataLen() == 0 {
				continue
			}
			if !copied {
				stub.Messages[i].Blocks, copied = slices.Clone(m.Blocks), true
			}
			marked := *src
			marked.Data, marked.raw = fmt.Sprintf("%s%d", tag, len(data)), nil
			stub.Messages[i].Blocks[j].Source = &marked
			data = append(data, bodyPart{text: src.Data, raw: src.raw})
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
		b.parts = append(b.parts, bodyPart{text: string(rest[:at])}, d)
		b.size += int64(d.len() - len(marker) + 1)
		rest = rest[at+len(marker)-1:]
	}
	b.parts = append(b.parts, bodyPart{text: string(rest)})
	return b, nil
}

// base64Reader reads the standard base64 of src, encoding it as it is
// read: straight into the reader's buffer, but for a quantum (4 bytes)
// that the buffer cuts, kept in tail.
type base64Reader struct {
	src  []byte
	tail [4]byte
	left []byte // of tail, what is still to be read
}

func (r *base64Reader) Read(p []byte) (int, error) {
	n := copy(p, r.left)
	r.left, p = r.left[n:], p[n:]
	if len(r.src) > 0 && len(p) >= 4 {
		take := min(len(p)/4*3, len(r.src))
		if take < len(r.src) {
			take -= take % 3 // padding only at the end
		}
		base64.StdEncoding.Encode(p, r.src[:take])
		m := base64.StdEncoding.EncodedLen(take)
		n, p, r.src = n+m, p[m:], r.src[take:]
	}
	if len(r.src) > 0 && len(p) > 0 && len(r.left) == 0 { // a buffer of under 4 bytes left
		take := min(3, len(r.src))
		base64.StdEncoding.Encode(r.tail[:], r.src[:take])
		r.left, r.src = r.tail[:base64.StdEncoding.EncodedLen(take)], r.src[take:]
		m := copy(p, r.left)
		n, r.left = n+m, r.left[m:]
	}
	if n == 0 && len(r.src) == 0 && len(r.left) == 0 {
		return 0, io.EOF
	}
	return n, nil
}
