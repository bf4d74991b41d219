package session

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// withoutBadAncillary returns the PNG data with each ancillary chunk whose
// CRC does not match left out, and whether one was. The PNG specification
// (ISO/IEC 15948, "Error handling") lets a decoder ignore such a chunk,
// as browsers and terminals do; image/png refuses the whole file instead.
// Reference servers send such files (the MCP everything server's logo has
// a broken iCCP chunk), so their previews need it. A bad critical chunk
// (IHDR, PLTE, IDAT, IEND) is kept, and the decode still fails on it.
func withoutBadAncillary(data []byte) ([]byte, bool) {
	const sig = "\x89PNG\r\n\x1a\n"
	if !bytes.HasPrefix(data, []byte(sig)) {
		return data, false
	}
	out := make([]byte, 0, len(data))
	out = append(out, sig...)
	dropped := false
	for p := len(sig); p < len(data); {
		if len(data)-p < 12 {
			return data, false // cut short: the decoder says so
		}
		n := int(binary.BigEndian.Uint32(data[p:]))
		if n < 0 || n > len(data)-p-12 {
			return data, false
		}
		chunk := data[p : p+12+n]
		typ, body := chunk[4:8], chunk[8:8+n]
		ancillary := typ[0]&0x20 != 0
		if ancillary && crc32.Update(crc32.ChecksumIEEE(typ), crc32.IEEETable, body) != binary.BigEndian.Uint32(chunk[8+n:]) {
			dropped = true
		} else {
			out = append(out, chunk...)
		}
		p += 12 + n
	}
	return out, dropped
}
