package ui

import (
	"muse/session"
	"muse/ui/composer"
)

// Attachments waiting to be sent are the composer's (ui/composer): the
// root says where they come from, and routes what the composer asks.

// attachArg is where /attach ARG takes its files from: a path, image n of
// the last image turn of es, or the clipboard's image; retype is the
// command put back into the input if the file is refused.
func attachArg(arg string, n int, es []session.Entry) (sources []composer.Source, retype string, err error) {
	switch arg {
	case "image":
		path, err := imagePath(es, n)
		if err != nil {
			return nil, "", err
		}
		return []composer.Source{{Path: path, Own: true}}, "", nil
	case "clipboard":
		return composer.Clipboard, "", nil
	}
	return []composer.Source{{Path: arg}}, "/attach " + arg, nil
}
