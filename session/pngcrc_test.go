package session

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withChunk returns the PNG data with a chunk of type typ and body added
// after IHDR, its CRC made wrong when bad is set.
func withChunk(data []byte, typ, body string, bad bool) []byte {
	const ihdrEnd = 8 + 12 + 13
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	chunk = append(chunk, typ+body...)
	sum := crc32.ChecksumIEEE([]byte(typ + body))
	if bad {
		sum++
	}
	chunk = binary.BigEndian.AppendUint32(chunk, sum)
	out := append([]byte{}, data[:ihdrEnd]...)
	out = append(out, chunk...)
	return append(out, data[ihdrEnd:]...)
}

// A PNG with an ancillary chunk whose CRC is wrong (as the MCP everything
// server's logo has) still decodes, without the chunk, as the PNG
// specification allows; a wrong CRC in a critical chunk is still refused.
func TestDecodeImageIgnoresABadAncillaryChunk(t *testing.T) {
	dir := t.TempDir()
	good := encodePNG(t, testImage(20, 10))
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	img, err := DecodeImage(write("iccp.png", withChunk(good, "iCCP", "a broken profile", true)), 0, 0)
	if err != nil {
		t.Fatalf("a bad iCCP chunk: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 20 || b.Dy() != 10 {
		t.Errorf("decoded %v", b)
	}
	if _, err := DecodeImage(write("ok.png", withChunk(good, "tEXt", "Comment\x00fine", false)), 0, 0); err != nil {
		t.Errorf("a good tEXt chunk: %v", err)
	}
	// A critical chunk with a bad CRC: IHDR's is the 4 bytes after it.
	bad := append([]byte{}, good...)
	bad[8+8+13]++
	if _, err := DecodeImage(write("ihdr.png", bad), 0, 0); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("a bad IHDR chunk: %v", err)
	}
	// An unknown critical chunk (upper case) with a bad CRC is kept, and refused.
	if _, err := DecodeImage(write("crit.png", withChunk(good, "ZZZZ", "x", true)), 0, 0); err == nil {
		t.Error("a critical chunk with a bad CRC was decoded")
	}
}
