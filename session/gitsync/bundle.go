package gitsync

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"muse/session"
	"path"
	"strings"
)

// bundleMagic starts every bundle's plain text.
const bundleMagic = "muse sync bundle v1\n"

// bundleMax is about the most plain text one bundle carries; a larger sync
// writes several.
const bundleMax = 16 << 20

// plainMax is the most plain text a bundle read from the remote may hold.
const plainMax = 4 * bundleMax

// Ops of a change.
const (
	opAppend = "append" // records added to a journal
	opFull   = "full"   // a whole file
	opGone   = "gone"   // the file was removed
)

// change is one file's change in a bundle.
type change struct {
	Path string `json:"path"` // slash-separated, under the data folder
	Op   string `json:"op"`
	Len  int    `json:"len,omitempty"`
	Data []byte `json:"-"`
}

// encodeBundle compresses the changes into a bundle's plain text.
func encodeBundle(cs []change) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(bundleMagic)
	zw, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		c.Len = len(c.Data)
		h, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		zw.Write(append(h, '\n'))
		zw.Write(c.Data)
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeBundle reads the changes of a bundle's plain text, refusing any
// that is malformed or names a path outside the synced folders.
func decodeBundle(plain []byte) ([]change, error) {
	rest, ok := bytes.CutPrefix(plain, []byte(bundleMagic))
	if !ok {
		return nil, errors.New("not a muse sync bundle")
	}
	br := bufio.NewReader(io.LimitReader(flate.NewReader(bytes.NewReader(rest)), plainMax))
	var cs []change
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			return cs, nil
		}
		if err != nil {
			return nil, fmt.Errorf("bundle cut short: %w", err)
		}
		var c change
		if err := json.Unmarshal(line, &c); err != nil {
			return nil, fmt.Errorf("bundle entry: %w", err)
		}
		if c.Len < 0 || c.Len > plainMax {
			return nil, fmt.Errorf("bundle entry of %d bytes", c.Len)
		}
		if _, err := kindOf(c.Path); err != nil {
			return nil, err
		}
		switch c.Op {
		case opAppend, opFull, opGone:
		default:
			return nil, fmt.Errorf("bundle entry with op %q", c.Op)
		}
		c.Data = make([]byte, c.Len)
		if _, err := io.ReadFull(br, c.Data); err != nil {
			return nil, fmt.Errorf("bundle cut short: %w", err)
		}
		cs = append(cs, c)
	}
}

// Kinds of synced files.
const (
	kindJournal = iota // sessions/<id>.jsonl
	kindFile           // a tombstone, image or attachment: written once
)

// kindOf returns the kind of the synced file at rel (slash-separated), or
// an error when rel is not one muse syncs: journals and tombstones directly
// in sessions/, files in images/ and attachments/ at most two folders deep.
func kindOf(rel string) (int, error) {
	bad := fmt.Errorf("%q is not a file muse syncs", rel)
	if rel == "" || path.Clean(rel) != rel || strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") {
		return 0, bad
	}
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if p == "" || p == "." || p == ".." || strings.HasPrefix(p, ".") {
			return 0, bad
		}
	}
	switch {
	case parts[0] == "sessions" && len(parts) == 2:
		if id, ok := strings.CutSuffix(parts[1], ".jsonl"); ok && session.ValidID(id) {
			return kindJournal, nil
		}
		if id, ok := strings.CutSuffix(parts[1], ".deleted"); ok && session.ValidID(id) {
			return kindFile, nil
		}
	case (parts[0] == "images" || parts[0] == "attachments") && len(parts) >= 2 && len(parts) <= 4:
		return kindFile, nil
	}
	return 0, bad
}
