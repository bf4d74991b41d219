package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
	"muse/ui/conversation"
	"muse/ui/engine"
	"muse/ui/preview"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// previewCols is the widest preview, in columns.
const previewCols = 40

// imageJob is the image turn in flight: the engine runs it in the
// background and reports through a channel; the model only mirrors what it
// reports.
type imageJob struct {
	id      int
	cancel  context.CancelFunc
	started time.Time
	// entry is the turn's entry as shown, once the engine wrote it.
	entry *session.Entry
	// phase is what the status bar says of it; done and total the progress
	// of a download.
	phase       string
	done, total int64
	cancelled   bool
}

// clone returns a copy of j to change, or nil for nil: the model is a
// value (see Model), and a copy of it keeps the image turn as it was.
func (j *imageJob) clone() *imageJob {
	if j == nil {
		return nil
	}
	c := *j
	return &c
}

// imageParams returns the session's image settings with the model filled in.
func (m Model) imageParams() session.ImageParams {
	var ip session.ImageParams
	if m.params.Image != nil {
		ip = *m.params.Image
	}
	if ip.Model == "" {
		ip.Model = m.opts.ImageModel
	}
	return ip
}

// startImage generates images from prompt, or from the last reply when empty.
func (m Model) startImage(prompt string) (tea.Model, tea.Cmd) {
	if m.busy() {
		m.status = m.status.Note("wait for the current reply, image or tool calls, or esc to cancel")
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
	return m.generate(prompt, m.imageParams(), nil)
}

// imageConfig is what every image turn of this screen shares.
func (m Model) imageConfig() engine.ImageConfig {
	store := m.opts.Store
	if store == nil {
		store = m.opts.ImageStore
	}
	return engine.ImageConfig{Client: m.opts.Client, Store: store, Now: m.opts.Now}
}

// generate starts an image turn with the settings ip: after the head, or,
// when again is set, beside the image turn again, as a sibling branch.
func (m Model) generate(prompt string, ip session.ImageParams, again *session.Entry) (tea.Model, tea.Cmd) {
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
	ctx, cancel := context.WithCancel(context.Background())
	m.turnSeq++
	m.imaging = &imageJob{id: m.turnSeq, cancel: cancel, started: m.now(), phase: "generating"}
	m.status, m.lastStop = m.status.Note("").Failed(""), ""
	return m.layout(), tea.Batch(runImage(ctx, m.imageConfig(), m.writer, t, m.previewer(), m.turnSeq), m.w.spin.Tick)
}

// runImage starts the engine's image turn in the background, building
// there the preview of each image saved.
func runImage(ctx context.Context, cfg engine.ImageConfig, w *session.Writer, t engine.ImageTurn, pv previewer, id int) tea.Cmd {
	return runEngine(ctx, w, id, func(r reporter) (engine.Result, error) {
		emit := func(ev engine.ImageEvent) {
			it := turnItem{image: &ev}
			switch ev.Kind {
			case engine.ImageFetching, engine.ImageTask, engine.ImageRetrying:
				r.progress(it)
				return
			case engine.ImageSaved:
				if ev.Image.Path != "" {
					it.preview = pv.build(ev.Image.Path)
				}
			}
			r.send(it)
		}
		_, err := engine.RunImage(ctx, cfg, w, t, emit)
		return engine.Result{}, err
	})
}

// applyImage mirrors the reports of the image turn.
func (m Model) applyImage(msg turnBatchMsg) (tea.Model, tea.Cmd) {
	m.imaging = m.imaging.clone() // changed below: a copy of the model keeps its own
	for _, it := range msg.items {
		switch {
		case it.done != nil:
			return m.finishImage(*it.done)
		case it.image != nil:
			m = m.applyImageEvent(*it.image, it.preview)
		}
	}
	if msg.ch == nil { // the engine stopped without saying how
		return m.finishImage(turnDone{err: api.ErrStreamCut})
	}
	return m, waitTurn(msg.id, msg.ch)
}

// applyImageEvent applies one report of the image turn; preview is that
// of an image saved. The caller has cloned m.imaging.
func (m Model) applyImageEvent(ev engine.ImageEvent, preview string) Model {
	j := m.imaging
	switch ev.Kind {
	case engine.ImageStarted:
		e := ev.Entry
		j.entry = &e
		m.conv = m.conv.Add(e)
		m = m.refreshBranches()
		if m.title == "" {
			m.title = session.TitleFrom(e.ImagePrompt)
		}
	case engine.ImageRetrying:
		j.phase = fmt.Sprintf("retrying in %s (attempt %d): %s",
			ev.Retry.Wait.Round(100*time.Millisecond), ev.Retry.Attempt, errorLine(ev.Retry.Err))
	case engine.ImageTask:
		// The status bar counts the turn's time already.
		j.phase = "task " + strings.ToLower(sanitize.Line(ev.Task.Status))
	case engine.ImagesDropped:
		m.status = m.status.Note(ev.Text)
	case engine.ImageListed:
		j.phase = "saving"
		m = m.showImage(ev.Entry)
	case engine.ImageFetching:
		if j.entry != nil {
			j.phase = fmt.Sprintf("downloading image %d of %d", ev.Index+1, len(j.entry.Images))
		}
		j.done, j.total = ev.Done, ev.Total
	case engine.ImageSaved:
		if preview != "" {
			m.conv = m.conv.SetPreview(ev.Image.Path, preview)
		}
		if j.entry != nil && ev.Index < len(j.entry.Images) {
			e := *j.entry
			e.Images = slices.Clone(e.Images) // the view keeps the one before
			e.Images[ev.Index] = ev.Image
			m = m.showImage(e)
		}
		j.phase, j.done, j.total = "saving", 0, 0
	case engine.ImageEnded:
		m = m.showImage(ev.Entry)
		if ev.Entry.Error != nil {
			m.status = m.status.Failed(failedName(ev.Entry.Error))
		}
	case engine.ImageSaveFailed:
		m.status = m.status.Unsaved(ev.Err.Error())
	}
	return m
}

// showImage shows the image turn's entry e as the engine reports it. The
// caller has cloned m.imaging.
func (m Model) showImage(e session.Entry) Model {
	m.imaging.entry = &e
	m.conv = m.conv.Replace(e)
	return m
}

// finishImage ends the image turn once the engine has saved it.
func (m Model) finishImage(d turnDone) (tea.Model, tea.Cmd) {
	j := m.imaging
	m.imaging = nil
	j.cancel()
	if d.sessID != "" {
		m.sessID = d.sessID
	}
	if errors.Is(d.err, engine.ErrNotStarted) {
		m.status = m.status.Note(d.err.Error())
	}
	m.conv = m.conv.CaughtUp()
	if m.quitting.Active() {
		return m.quit()
	}
	next, cmd := m.layout().queueAfterTurn(d.err == nil && !j.cancelled)
	if j.cancelled {
		return next, cmd
	}
	return next, tea.Batch(cmd, m.notifyEnd(j.started, "image"))
}

// cancelImage stops the image turn: what was saved stays, and the engine
// saves the turn, marked cancelled; the turn ends when the engine says so.
func (m Model) cancelImage() (tea.Model, tea.Cmd) {
	m.imaging = m.imaging.clone() // changed below: a copy of the model keeps its own
	j := m.imaging
	if j.cancelled {
		return m, nil
	}
	j.cancelled = true
	j.phase = "cancelling"
	j.cancel()
	m.status = m.status.Note("cancelled")
	return m.layout(), nil
}

// previewer builds the preview of a saved image: half blocks, or, in a
// terminal that speaks the kitty graphics protocol, a real image shown
// through Unicode placeholders. It runs in commands, never in Update.
type previewer struct {
	profile termenv.Profile
	// kitty, when set, receives the image transmission (the terminal).
	kitty io.Writer
	// attachment finds the stored file of an attachment.
	attachment func(session.Attachment) string
}

// build returns the preview of the image at path, or "" when it cannot.
func (p previewer) build(path string) string {
	img, err := session.DecodeImage(path, session.MaxImageSide, session.MaxImagePixels)
	if err != nil {
		return ""
	}
	if p.kitty == nil {
		return preview.HalfBlocksFor(img, previewCols, p.profile)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return preview.HalfBlocksFor(img, previewCols, p.profile)
	}
	b := img.Bounds()
	cols, rows := preview.Fit(b.Dx(), b.Dy(), previewCols)
	id := kittyID(path)
	// One write that draws nothing: a virtual placement the placeholders show.
	if _, err := io.WriteString(p.kitty, preview.KittyTransmit(id, buf.Bytes(), cols, rows)); err != nil {
		return preview.HalfBlocksFor(img, previewCols, p.profile)
	}
	return preview.KittyPlaceholder(id, cols, rows)
}

// kittyID is a stable image id of 256 or more for a path, so a preview sent
// again replaces the same image.
func kittyID(path string) uint32 {
	h := fnv.New32a()
	io.WriteString(h, path)
	return h.Sum32()&0xffffff | 0x100
}

// previewsMsg carries previews rebuilt from saved files, as on resume, and
// the names of the attachments whose files are missing.
type previewsMsg struct {
	previews map[string]string
	missing  []string
}

// previewer is how this screen draws previews.
func (m Model) previewer() previewer {
	p := previewer{profile: m.opts.Profile}
	if m.opts.Kitty {
		p.kitty = m.opts.Terminal
	}
	// The id the screen knows: the writer's lock waits for a replay.
	store, id := m.writer.Files(), m.sessID
	p.attachment = func(a session.Attachment) string { return store.AttachmentPath(id, a) }
	return p
}

// AttachmentPreviewKey is the key of an attachment's preview in the
// renderer's Previews.
func attachmentPreviewKey(a session.Attachment) string { return conversation.AttachmentPreviewKey(a) }

// loadPreviews rebuilds the previews of saved images and of the image
// attachments of entries, and finds the attachments whose files are gone.
func loadPreviews(entries []session.Entry, pv previewer) tea.Cmd {
	type job struct{ key, path string }
	var jobs []job
	var attachments []session.Attachment
	for _, e := range entries {
		for _, img := range e.Images {
			if img.Path != "" {
				jobs = append(jobs, job{img.Path, img.Path})
			}
		}
		attachments = append(attachments, e.Files()...)
	}
	if len(jobs) == 0 && len(attachments) == 0 {
		return nil
	}
	return func() tea.Msg {
		out := make(map[string]string, len(jobs))
		var missing []string
		seen := map[string]bool{}
		for _, a := range attachments {
			if seen[a.SHA256] {
				continue
			}
			seen[a.SHA256] = true
			path := ""
			if pv.attachment != nil {
				path = pv.attachment(a)
			}
			if fi, err := os.Stat(path); path == "" || err != nil || fi.Size() != a.Bytes {
				missing = append(missing, a.Name)
				continue
			}
			if a.Kind == session.AttachImage {
				jobs = append(jobs, job{attachmentPreviewKey(a), path})
			}
		}
		for _, j := range jobs {
			if shown := pv.build(j.path); shown != "" {
				out[j.key] = shown
			} else if _, err := os.Stat(j.path); errors.Is(err, fs.ErrNotExist) && j.key == j.path {
				missing = append(missing, filepath.Base(j.path)) // a generated image's file
			}
		}
		return previewsMsg{previews: out, missing: missing}
	}
}

// imagePath is the saved file of image n (from 1) of the last image turn
// that has images (not one cancelled before any came back);
// n = 0 means the last image saved by any turn, so a failed turn does not
// hide the images before it.
func (m Model) imagePath(n int) (string, error) {
	es := m.conv.Entries()
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
