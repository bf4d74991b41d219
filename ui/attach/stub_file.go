package attach

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"muse/session"
)

// File is an attachment ready to be sent (stub until the attach branch lands).
type File struct {
	session.Attachment
	Data []byte
}

// Open is a stub.
func Open(path string) (File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	return FromBytes(filepath.Base(path), data)
}

// FromBytes is a stub.
func FromBytes(name string, data []byte) (File, error) {
	if len(data) == 0 {
		return File{}, errors.New("empty")
	}
	return File{Attachment: session.Attachment{Name: name, Kind: session.AttachText, MediaType: "text/plain", Bytes: int64(len(data))}, Data: data}, nil
}

// Label is a stub.
func (f File) Label() string { return Describe(f.Attachment) }

// Describe is a stub.
func Describe(a session.Attachment) string { return fmt.Sprintf("%s · %d B", a.Name, a.Bytes) }
