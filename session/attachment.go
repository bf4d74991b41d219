package session

// Kinds of attachments, as Attachment.Kind names them.
const (
	// AttachImage is an image (PNG, JPEG, GIF or WebP), sent as an image block.
	AttachImage = "image"
	// AttachDocument is a PDF, sent as a document block.
	AttachDocument = "document"
	// AttachText is a text or source file, sent as a text block naming it.
	AttachText = "text"
)

// Attachment is a file sent with a prompt. It says what the file is; its
// bytes, as sent, are stored once per session under their SHA-256 (see
// Writer.SaveAttachment and Writer.ReadAttachment).
type Attachment struct {
	// Name is the file's base name as the user knows it (untrusted: it is
	// sanitized before it is shown).
	Name string `json:"name"`
	// Kind is AttachImage, AttachDocument or AttachText.
	Kind string `json:"kind"`
	// MediaType is what is sent: image/png, image/jpeg, image/gif,
	// image/webp, application/pdf or text/plain.
	MediaType string `json:"media_type"`
	// SHA256 is the hex SHA-256 of the bytes as sent, which name the
	// stored file.
	SHA256 string `json:"sha256"`
	// Bytes is the size of the bytes as sent.
	Bytes int64 `json:"bytes"`
	// Size is the size of the original file, when it differs from Bytes
	// (an image scaled down).
	Size int64 `json:"size,omitempty"`
	// Width and Height are an image's pixels as sent.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Note says what was done to the file before it was sent, such as
	// "scaled from 6000×4000".
	Note string `json:"note,omitempty"`
}
