package session

// File is an attachment ready to be sent: what it is, and its bytes as
// sent. ui/attach makes one from a file, standard input or the clipboard;
// the engine (ui/engine) sends it with a prompt and stores it with
// Writer.SaveAttachment. It is a plain value: making one reads and checks
// the file, sending it builds and checks the request, and neither happens
// here.
type File struct {
	// Attachment says what the file is. Its SHA256 is left empty until the
	// session stores Data (Writer.SaveAttachment fills it in).
	Attachment
	// Data is the bytes as sent: an image as it was or scaled and encoded
	// again, a PDF, or text in UTF-8 without a byte order mark.
	Data []byte
}
