package page

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"muse/session"
	"muse/ui/attach"
)

// files writes the files sent with a prompt or a tool's result: each image
// shown, each other file named.
func (p *writer) files(as []session.Attachment) {
	var others []session.Attachment
	for _, a := range as {
		if a.Kind != session.AttachImage {
			others = append(others, a)
			continue
		}
		var data []byte
		err := errors.New("the session's files were not given")
		if p.opt.Files != nil {
			data, err = p.opt.Files.ReadAttachment(p.sess.ID, a)
		}
		caption := a.Name
		if a.Width > 0 {
			caption += fmt.Sprintf(" · %d×%d", a.Width, a.Height)
		}
		p.figure(a.Name, data, err, a.Name, caption)
	}
	if len(others) == 0 {
		return
	}
	p.str(`<ul class="files">`)
	for _, a := range others {
		p.str("<li>Attached " + p.esc(a.Name) + " (" + p.esc(a.Kind) + ", " + thousands(int(a.Bytes)) + " bytes)</li>")
	}
	p.str("</ul>\n")
}

// images writes an image generation: its prompt, its settings and each
// image, or why it failed.
func (p *writer) images(e *session.Entry) {
	if e.ImagePrompt != "" {
		p.str(`<p class="raw">` + p.esc(strings.TrimRight(e.ImagePrompt, "\n")) + "</p>\n")
	}
	if ip := e.ImageParams; ip != nil {
		var opts []string
		if ip.Size != "" {
			opts = append(opts, "size "+ip.Size)
		}
		if ip.NegativePrompt != "" {
			opts = append(opts, "negative prompt: "+ip.NegativePrompt)
		}
		if len(opts) > 0 {
			p.str(`<p class="label">` + p.esc(strings.Join(opts, " · ")) + "</p>\n")
		}
	}
	for _, img := range e.Images {
		name := fmt.Sprintf("Image %d", img.Index+1)
		if img.Error != "" {
			p.str(`<p class="missing">` + name + " failed: " + p.esc(img.Error) + "</p>\n")
			continue
		}
		var data []byte
		err := errors.New("the session's files were not given")
		if p.opt.Files != nil {
			data, err = p.opt.Files.ReadImage(img)
		}
		caption := name
		if img.Width > 0 {
			caption += fmt.Sprintf(" · %d×%d", img.Width, img.Height)
		}
		if img.RevisedPrompt != "" {
			caption += " · revised prompt: " + img.RevisedPrompt
		}
		alt := e.ImagePrompt
		if alt == "" {
			alt = name
		}
		p.figure(name, data, err, alt, caption)
	}
	if e.Error != nil {
		p.errorInfo(e.Error, e.RequestID)
	}
}

// figure writes an image, embedded as a data: URI, scaled down to
// MaxImagePx; or, when it could not be read or is not an image, a line
// saying so in its place. alt and caption are texts of the session. What
// failed is named by the image's name, never by its path, which would tell
// the reader where the user's files are.
func (p *writer) figure(name string, data []byte, readErr error, alt, caption string) {
	if readErr != nil {
		p.str(`<p class="missing">` + p.esc(name) + ": the image file is missing or unreadable, so it is not on this page.</p>\n")
		return
	}
	f, err := attach.Fit(name, data, p.opt.MaxImagePx)
	if err != nil {
		p.str(`<p class="missing">` + p.esc(name) + ": not an image this page can show.</p>\n")
		return
	}
	p.str(`<figure><img alt="` + p.esc(strings.TrimSpace(alt)) + `"`)
	if f.Width > 0 && f.Height > 0 {
		p.str(fmt.Sprintf(` width="%d" height="%d"`, f.Width, f.Height))
	}
	p.str(` decoding="async" src="data:` + f.MediaType + ";base64,")
	enc := base64.NewEncoder(base64.StdEncoding, p.out)
	enc.Write(f.Data)
	enc.Close()
	p.str(`"><figcaption>` + p.esc(caption) + "</figcaption></figure>\n")
}
