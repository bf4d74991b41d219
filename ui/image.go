package ui

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/session"
	"muse/ui/conversation"
	"muse/ui/engine"
	"muse/ui/preview"
	"muse/ui/textfmt"
)

// previewCols is the widest preview, in columns.
const previewCols = 40

// imageParams returns the image settings p with the model filled in from
// def, the default image model.
func imageParams(p *session.ImageParams, def string) session.ImageParams {
	var ip session.ImageParams
	if p != nil {
		ip = *p
	}
	if ip.Model == "" {
		ip.Model = def
	}
	return ip
}

// imageStore is the store whose images folder holds the session's
// generated images: the session's store, else the one for -p images.
func (o Options) imageStore() *session.Store {
	if o.Store != nil {
		return o.Store
	}
	return o.ImageStore
}

// imageConfig is what every image turn of the screen shares.
func (o Options) imageConfig() engine.ImageConfig {
	return engine.ImageConfig{Client: o.Client, Store: o.imageStore(), Now: o.Now}
}

// startImage starts an image turn with the settings ip: after the head,
// or, when again is set, beside the image turn again, as a sibling branch.
// An empty prompt draws the last reply.
func (m Model) startImage(prompt string, ip session.ImageParams, again *session.Entry) (tea.Model, tea.Cmd) {
	if m.turns.Busy() {
		m.status = m.status.Busy(busyNotice + ": esc cancels it, or wait for it to end")
		return m, nil
	}
	if prompt == "" {
		es := m.conv.Entries()
		if a := lastIndex(es, session.KindAssistant); a >= 0 && es[a].Message != nil {
			prompt = strings.TrimSpace(es[a].Message.Text())
		}
		if prompt == "" {
			m.status = m.status.Note("usage: /image PROMPT (or /image alone after a reply, to draw it)")
			return m, nil
		}
	}
	if ip.Model == "" {
		m.status = m.status.Note("no image model: set MUSE_IMAGE_MODEL, --image-model or /image-model NAME")
		return m, nil
	}
	// The engine builds and checks the request: one it refuses ends the
	// turn with ErrNotStarted, before anything is written.
	t := engine.ImageTurn{Prompt: prompt, Params: ip}
	if again != nil {
		t.Again = again.ID
		if i := m.conv.Index(again.ID); i >= 0 {
			m.conv = m.conv.Truncate(i)
		}
	}
	m.conv = m.conv.CaughtUp()
	var run tea.Cmd
	m.turns, run = m.turns.StartImage(m.now(), m.opts.imageConfig(), m.writer, t, m.previewer().build)
	m.status, m.lastStop = m.status.Note("").Failed(""), ""
	return m.layout(), tea.Batch(run, m.w.spin.Tick)
}

// previewer builds the preview of a saved image: half blocks, or, in a
// terminal that speaks the kitty graphics protocol, a real image shown
// through Unicode placeholders. It runs in commands, never in Update.
type previewer struct {
	profile termenv.Profile
	// rows is the tallest a preview may be (preview.MaxRows of the
	// window's height), so that a small screen keeps its input in view.
	rows int
	// kitty, when set, receives the image transmission (the terminal).
	kitty io.Writer
	// attachment finds the stored file of an attachment, for a presence
	// check; readAttachment reads it through the store's checks (its hash,
	// no link followed: session.Store.ReadAttachment), the one way a
	// preview gets an attachment's bytes.
	attachment     func(session.Attachment) string
	readAttachment func(session.Attachment) ([]byte, error)
	// images is the store whose images folder holds the session's
	// generated images: the only files previewed by a journal's path.
	images *session.Store
}

// build returns the preview of the image at path, or "" when it cannot.
func (p previewer) build(path string) string {
	img, err := session.DecodeImage(path, session.MaxImageSide, session.MaxImagePixels)
	if err != nil {
		return ""
	}
	return p.show(path, img)
}

// buildData returns the preview of the image data, known as key, or ""
// when it cannot.
func (p previewer) buildData(key string, data []byte) string {
	img, err := session.DecodeImageData(data, session.MaxImageSide, session.MaxImagePixels)
	if err != nil {
		return ""
	}
	return p.show(key, img)
}

// show returns the preview of img, known as key (its path, or an
// attachment's preview key).
func (p previewer) show(key string, img image.Image) string {
	b := img.Bounds()
	maxCols := preview.ColsFor(b.Dx(), b.Dy(), previewCols, p.rows)
	if p.kitty == nil {
		return preview.HalfBlocksFor(img, maxCols, p.profile)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return preview.HalfBlocksFor(img, maxCols, p.profile)
	}
	cols, rows := preview.Fit(b.Dx(), b.Dy(), maxCols)
	id := kittyID(key)
	// One write that draws nothing: a virtual placement the placeholders show.
	if _, err := io.WriteString(p.kitty, preview.KittyTransmit(id, buf.Bytes(), cols, rows)); err != nil {
		return preview.HalfBlocksFor(img, maxCols, p.profile)
	}
	return preview.KittyPlaceholder(id, cols, rows)
}

// kittyID is a stable image id of 256 or more for a preview's key, so a
// preview sent again replaces the same image.
func kittyID(key string) uint32 {
	h := fnv.New32a()
	io.WriteString(h, key)
	return h.Sum32()&0xffffff | 0x100
}

// previewsMsg carries previews rebuilt from saved files, as on resume, the
// names of the attachments whose files are missing, and how many images
// the journal names outside muse's images folder.
type previewsMsg struct {
	previews map[string]string
	missing  []string
	foreign  int
}

// foreignPreview stands in the preview of an image whose journal names a
// file outside muse's images folder (one that came by sync or was written
// by hand): nothing of it is read.
const foreignPreview = "   image not in muse's images folder: not shown or opened"

// previewer is how this screen draws previews.
func (m Model) previewer() previewer {
	p := previewer{profile: m.opts.Profile, rows: preview.MaxRows(m.size.Height), images: m.opts.imageStore()}
	if m.opts.Kitty {
		p.kitty = m.opts.Terminal
	}
	// The id the screen knows: the writer's lock waits for a replay.
	store, id := m.writer.Files(), m.sessID
	p.attachment = func(a session.Attachment) string { return store.AttachmentPath(id, a) }
	p.readAttachment = func(a session.Attachment) ([]byte, error) { return store.ReadAttachment(id, a) }
	return p
}

// AttachmentPreviewKey is the key of an attachment's preview in the
// renderer's Previews.
func attachmentPreviewKey(a session.Attachment) string { return conversation.AttachmentPreviewKey(a) }

// loadPreviews rebuilds the previews of saved images and of the image
// attachments of entries, and finds the attachments whose files are gone.
// An image attachment is read through the store's checks
// (previewer.readAttachment): a file swapped for another, or a link put
// in its place, is missing, never shown as the attachment. Another
// attachment is only looked for (its size): it is not shown, and a turn
// that sends it reads it through the same checks.
func loadPreviews(entries []session.Entry, pv previewer) tea.Cmd {
	type job struct{ key, path string }
	var jobs []job
	var images []string
	var attachments []session.Attachment
	for _, e := range entries {
		for _, img := range e.Images {
			if img.Path != "" {
				images = append(images, img.Path)
			}
		}
		attachments = append(attachments, e.Files()...)
	}
	if len(images) == 0 && len(attachments) == 0 {
		return nil
	}
	return func() tea.Msg {
		out := make(map[string]string, len(images))
		var missing []string
		foreign := 0
		// A generated image is read only from muse's images folder, its
		// links followed: the journal may name any file.
		for _, path := range images {
			own, err := pv.images.OwnImage(path)
			switch {
			case errors.Is(err, fs.ErrNotExist): // here, or in another machine's folder
				missing = append(missing, filepath.Base(path))
			case errors.Is(err, session.ErrForeignImage):
				out[path] = foreignPreview
				foreign++
			case err == nil:
				jobs = append(jobs, job{path, own})
			}
		}
		seen := map[string]bool{}
		for _, a := range attachments {
			if seen[a.SHA256] {
				continue
			}
			seen[a.SHA256] = true
			if a.Kind == session.AttachImage {
				var data []byte
				err := session.ErrAttachmentMissing
				if pv.readAttachment != nil {
					data, err = pv.readAttachment(a)
				}
				if err != nil {
					missing = append(missing, a.Name)
				} else if shown := pv.buildData(attachmentPreviewKey(a), data); shown != "" {
					out[attachmentPreviewKey(a)] = shown
				}
				continue
			}
			path := ""
			if pv.attachment != nil {
				path = pv.attachment(a)
			}
			if fi, err := os.Stat(path); path == "" || err != nil || fi.Size() != a.Bytes {
				missing = append(missing, a.Name)
			}
		}
		for _, j := range jobs {
			if shown := pv.build(j.path); shown != "" {
				out[j.key] = shown
			}
		}
		return previewsMsg{previews: out, missing: missing, foreign: foreign}
	}
}

// foreignNotice says that n images the session's journal names are files
// outside muse's images folder.
func foreignNotice(n int) string {
	return fmt.Sprintf("%s named by this session's journal %s not in muse's images folder: not shown or opened (was it synced or edited by hand?)",
		textfmt.Plural(n, "image"), map[bool]string{true: "is", false: "are"}[n == 1])
}

// imagePath is the saved file of image n (from 1) of the last image turn
// of es that has images (not one cancelled before any came back);
// n = 0 means the last image saved by any turn, so a failed turn does not
// hide the images before it.
func imagePath(es []session.Entry, n int) (string, error) {
	i := lastIndex(es, session.KindImage)
	if i < 0 {
		return "", fmt.Errorf("no image yet: /image PROMPT makes one")
	}
	// A turn cancelled or failed before any image came back has none to
	// number: the last turn that has some does.
	for i >= 0 && (es[i].Kind != session.KindImage || len(es[i].Images) == 0) {
		i--
	}
	if i < 0 {
		return "", fmt.Errorf("no image turn has images yet: /image PROMPT makes some")
	}
	if n == 0 {
		for ; i >= 0; i-- {
			imgs := es[i].Images
			for k := len(imgs) - 1; k >= 0; k-- {
				if imgs[k].Path != "" {
					return imgs[k].Path, nil
				}
			}
		}
		return "", fmt.Errorf("no image was saved yet")
	}
	imgs := es[i].Images
	if n > len(imgs) {
		return "", fmt.Errorf("the last image turn has %s", textfmt.Plural(len(imgs), "image"))
	}
	if imgs[n-1].Path == "" {
		return "", fmt.Errorf("image %d was not saved", n)
	}
	return imgs[n-1].Path, nil
}
