package attach

import "muse/session"

// File is an attachment ready to be sent (stub until the attach branch lands).
type File struct {
	session.Attachment
	Data []byte
}
