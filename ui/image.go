package ui

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"image/png"
	"io"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
	"muse/ui/images"
	"muse/ui/preview"
	"muse/ui/textfmt"
)

// previewCols is the widest preview, in columns.
const previewCols = 40

// imageJob is an image turn in flight: the request, then saving each image.
type imageJob struct {
	turn     int
	number   int // the image turn's number in its session, from 1, in its files' names
	cancel   context.CancelFunc
	entry    session.Entry
	started  time.Time
	result   *api.ImageResult // kept until the session has an id to save under
	sessID   string           // the session the images are saved under, once written
	recorded bool             // the entry was written (or could not be)
	phase    string
	done     int64
	total    int64
}

// imageResultMsg is the server's answer to an image request.
type imageResultMsg struct {
	turn   int
	result *api.ImageResult
	err    error
}

// imageItem is one report of the saving pump.
type imageItem struct {
	index       int
	done, total int64 // download progress
	saved       *session.Image
	preview     string
	finished    bool
}

// imagesStartedMsg says the saving pump runs and where it reports.
type imagesStartedMsg struct {
	turn int
	ch   <-chan imageItem
}

// imageItemMsg carries one report of the saving pump.
type imageItemMsg struct {
	turn int
	item imageItem
	ch   <-chan imageItem
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
		m.notice = "wait for the current reply, image or tool calls, or esc to cancel"
		return m, nil
	}
	if prompt == "" {
		es := m.conv.Entries()
		if a := lastIndex(es, session.KindAssistant); a >= 0 && es[a].Message != nil {
			prompt = strings.TrimSpace(es[a].Message.Text())
		}
		if prompt == "" {
			m.notice = "usage: /image PROMPT (or /image alone after a reply, to draw it)"
			return m, nil
		}
	}
	return m.generate(prompt, m.imageParams(), nil)
}

// generate starts an image turn with the settings ip: after the head, or,
// when again is set, beside the image turn again, as a sibling branch.
func (m Model) generate(prompt string, ip session.ImageParams, again *session.Entry) (tea.Model, tea.Cmd) {
	if ip.Model == "" {
		m.notice = "no image model: set MUSE_IMAGE_MODEL, --image-model or /image-model NAME"
		return m, nil
	}
	req := ip.Request(prompt)
	if err := req.Validate(); err != nil {
		m.notice = err.Error()
		return m, nil
	}
	entry := session.Entry{ID: m.writer.NewID(), Kind: session.KindImage, Time: m.now().UTC(), ImagePrompt: prompt, ImageParams: &ip, Status: session.StatusStreaming}
	var at *string
	if again != nil {
		parent := again.Parent
		at, entry.Parent = &parent, parent
		if i := m.indexOf(again.ID); i >= 0 {
			m.conv = m.conv.Truncate(i)
		}
	}
	m.conv = m.conv.CaughtUp().Add(entry)
	title := ""
	if m.title == "" {
		m.title = session.TitleFrom(prompt)
		title = m.title
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.turnSeq++
	m.imageTurns++
	m.imaging = &imageJob{turn: m.turnSeq, number: m.imageTurns, cancel: cancel, entry: entry, started: m.now(), phase: "generating"}
	m.notice, m.lastErr, m.lastStop = "", "", ""
	// Record the turn now, so the session has an id to save the images under.
	return m.layout(), tea.Batch(generateImages(ctx, m.opts.Client, req, m.turnSeq), recordImageEntry(m.writer, entry, title, m.turnSeq, at), m.w.spin.Tick)
}

// imageEntrySavedMsg reports the image turn's entry written, and the id of
// the session it is in.
type imageEntrySavedMsg struct {
	turn   int
	sessID string
	err    error
}

// recordImageEntry writes an image turn's entry (and the title of a new
// session) before its images are saved: after the head, or after the entry
// at (a first entry when it is "") when the turn is drawn again.
func recordImageEntry(w *session.Writer, e session.Entry, title string, turn int, at *string) tea.Cmd {
	return func() tea.Msg {
		if title != "" {
			_ = w.SetTitle(title) // written with the session's header
		}
		var err error
		if at != nil {
			_, err = w.AppendAt(e, *at)
		} else {
			_, err = w.Append(e)
		}
		return imageEntrySavedMsg{turn: turn, sessID: w.ID(), err: err}
	}
}

func (m Model) imageEntrySaved(msg imageEntrySavedMsg) (tea.Model, tea.Cmd) {
	j := m.imaging
	if j == nil || msg.turn != j.turn {
		return m, nil
	}
	j.recorded, j.sessID = true, msg.sessID
	if msg.err != nil {
		m.saveErr = msg.err.Error()
	}
	m = m.refreshBranches()
	return m.maybeSaveImages()
}

func generateImages(ctx context.Context, c *api.Client, req api.ImageRequest, turn int) tea.Cmd {
	return func() tea.Msg {
		res, err := c.GenerateImage(ctx, req)
		return imageResultMsg{turn: turn, result: res, err: err}
	}
}

// imageResult handles the server's answer: errors end the turn; images are
// saved once the session has an id.
func (m Model) imageResult(msg imageResultMsg) (tea.Model, tea.Cmd) {
	j := m.imaging
	if j == nil || msg.turn != j.turn {
		return m, nil
	}
	if msg.err != nil {
		e := session.ErrorEntry(msg.err)
		j.entry.Error, j.entry.Status = e.Error, session.StatusFailed
		j.entry.RequestID = e.RequestID
		return m.finishImage()
	}
	j.result = msg.result
	for _, d := range msg.result.Data {
		j.entry.Images = append(j.entry.Images, session.Image{Index: len(j.entry.Images), URL: d.URL, RevisedPrompt: d.RevisedPrompt})
	}
	if len(j.entry.Images) == 0 {
		j.entry.Error = &session.ErrorInfo{Message: "the server returned no images"}
		j.entry.Status = session.StatusFailed
		return m.finishImage()
	}
	m.conv = m.conv.Replace(j.entry)
	return m.maybeSaveImages()
}

// maybeSaveImages starts saving once the result and the session id are there.
func (m Model) maybeSaveImages() (tea.Model, tea.Cmd) {
	j := m.imaging
	if j == nil || j.result == nil || !j.recorded {
		return m, nil
	}
	if m.opts.Store == nil {
		j.entry.Status = session.StatusComplete
		return m.finishImage()
	}
	if j.sessID == "" {
		// No session to save the images under: end the image turn.
		j.entry.Error = &session.ErrorInfo{Message: "the session could not be created: " + m.saveErr}
		j.entry.Status = session.StatusFailed
		j.result = nil
		return m.finishImage()
	}
	res := j.result
	j.result = nil
	j.phase = "saving"
	ctx, cancel := context.WithCancel(context.Background())
	old := j.cancel
	j.cancel = func() { old(); cancel() }
	return m, saveImages(ctx, m.opts.Client, m.opts.Store, j.sessID, j.number, res, m.previewer(), j.turn)
}

// saveImages decodes or downloads each image, saves it and builds its
// preview, reporting through a channel. It never touches the model.
func saveImages(ctx context.Context, c *api.Client, store *session.Store, sessionID string, turn int, res *api.ImageResult, pv previewer, jobTurn int) tea.Cmd {
	return func() tea.Msg {
		ch := make(chan imageItem, 16)
		go func() {
			defer close(ch)
			send := func(it imageItem) bool {
				select {
				case ch <- it:
					return true
				case <-ctx.Done():
					return false
				}
			}
			for i, d := range res.Data {
				img := session.Image{Index: i, URL: d.URL, RevisedPrompt: d.RevisedPrompt}
				data, err := images.Fetch(ctx, c, d, func(done, total int64) {
					send(imageItem{index: i, done: done, total: total})
				})
				var shown string
				if err == nil {
					var saved session.SavedImage
					saved, err = store.SaveImage(sessionID, turn, i+1, data)
					if err == nil {
						img.Path, img.Width, img.Height = saved.Path, saved.Width, saved.Height
						shown = pv.build(saved.Path)
					}
				}
				if err != nil {
					img.Error = err.Error()
				}
				if !send(imageItem{index: i, saved: &img, preview: shown}) {
					return
				}
			}
			send(imageItem{finished: true})
		}()
		return imagesStartedMsg{turn: jobTurn, ch: ch}
	}
}

// previewer builds the preview of a saved image: half blocks, or, in a
// terminal that speaks the kitty graphics protocol, a real image shown
// through Unicode placeholders. It runs in commands, never in Update.
type previewer struct {
	profile termenv.Profile
	// kitty, when set, receives the image transmission (the terminal).
	kitty io.Writer
}

// build returns the preview of the image at path, or "" when it cannot.
func (p previewer) build(path string) string {
	img, err := session.DecodeImage(path, images.MaxSide, images.MaxPixels)
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

func waitImages(turn int, ch <-chan imageItem) tea.Cmd {
	return func() tea.Msg {
		it, ok := <-ch
		if !ok {
			return imageItemMsg{turn: turn, item: imageItem{finished: true}}
		}
		return imageItemMsg{turn: turn, item: it, ch: ch}
	}
}

func (m Model) imageItem(msg imageItemMsg) (tea.Model, tea.Cmd) {
	j := m.imaging
	if j == nil || msg.turn != j.turn {
		return m, nil
	}
	it := msg.item
	switch {
	case it.finished:
		j.entry.Status = session.StatusComplete
		return m.finishImage()
	case it.saved != nil:
		if it.index < len(j.entry.Images) {
			j.entry.Images[it.index] = *it.saved
		}
		if it.preview != "" {
			m.renderer.Previews[it.saved.Path] = it.preview
		}
		j.done, j.total = 0, 0
		m.conv = m.conv.Replace(j.entry)
	default:
		j.phase = fmt.Sprintf("downloading image %d of %d", it.index+1, len(j.entry.Images))
		j.done, j.total = it.done, it.total
	}
	return m, waitImages(msg.turn, msg.ch)
}

// finishImage ends the image turn and saves it.
func (m Model) finishImage() (tea.Model, tea.Cmd) {
	j := m.imaging
	m.imaging = nil
	j.cancel()
	j.entry.LatencyMS = m.now().Sub(j.started).Milliseconds()
	m.conv = m.conv.Replace(j.entry)
	if j.entry.Error != nil {
		m.lastErr = failedName(j.entry.Error)
	}
	e := j.entry
	next, cmd := m.layout(), m.save(func(w *session.Writer) error { _, err := w.Append(e); return err })
	if next.quitting {
		q, qcmd := next.quit()
		return q, tea.Batch(cmd, qcmd)
	}
	return next, cmd
}

// cancelImage stops the image turn; what was saved stays.
func (m Model) cancelImage() (tea.Model, tea.Cmd) {
	m.imaging.entry.Status = session.StatusCancelled
	return m.finishImage()
}

// previewsMsg carries previews rebuilt from saved files, as on resume.
type previewsMsg struct{ previews map[string]string }

// previewer is how this screen draws previews.
func (m Model) previewer() previewer {
	p := previewer{profile: m.opts.Profile}
	if m.opts.Kitty {
		p.kitty = m.opts.Terminal
	}
	return p
}

// loadPreviews rebuilds the previews of saved images.
func loadPreviews(entries []session.Entry, pv previewer) tea.Cmd {
	var paths []string
	for _, e := range entries {
		for _, img := range e.Images {
			if img.Path != "" {
				paths = append(paths, img.Path)
			}
		}
	}
	if len(paths) == 0 {
		return nil
	}
	return func() tea.Msg {
		out := make(map[string]string, len(paths))
		for _, p := range paths {
			if shown := pv.build(p); shown != "" {
				out[p] = shown
			}
		}
		return previewsMsg{previews: out}
	}
}

// imagePath is the saved file of image n (from 1) of the last image turn;
// n = 0 means the last image saved by any turn, so a failed turn does not
// hide the images before it.
func (m Model) imagePath(n int) (string, error) {
	es := m.conv.Entries()
	i := lastIndex(es, session.KindImage)
	if i < 0 {
		return "", fmt.Errorf("no image yet: /image PROMPT makes one")
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
