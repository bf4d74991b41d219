package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"muse/api"
	"muse/session"
)

// An image turn is run here for both front ends, as a message turn is: the
// entry is written first, so that the images have a session to be saved
// under, then the request is sent (an asynchronous task polled until it
// ends), each image is decoded or downloaded and saved, and the entry is
// written again with what became of each image.

// errNoImages is the error of an image turn whose answer held no image.
var errNoImages = errors.New("the server returned no images")

// ImageConfig is what the image turns of a front end share.
type ImageConfig struct {
	Client *api.Client
	// Store keeps the image files: in its folder of the session, or, for a
	// session that has no journal (--no-save, or one that could not be
	// created), in a one-shot folder of the turn's own. With Store nil and
	// Out empty no file is written, and each image says so.
	Store *session.Store
	// Out, when set, is the folder the files go to instead, named
	// image-<i>, never replacing a file.
	Out string
	// MaxBytes bounds the bytes of all the images of one generation,
	// downloaded or decoded (session.MaxGenerationBytes when 0).
	MaxBytes int64
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ImageTurn says what an image turn draws.
type ImageTurn struct {
	Prompt string
	// Params are the image settings; Params.Model names the model.
	Params session.ImageParams
	// Again is the id of an image turn of the active branch to draw again
	// beside it, as a sibling branch; "" adds the turn after the head.
	Again string
	// SaveOnAnswer writes the turn's entry (and the title of a new
	// session) only once the server answers its request, as Turn's does:
	// with images, an error of its own, or an asynchronous task. A turn
	// whose request got no answer at all writes nothing and reports no
	// ImageStarted; ImageOutcome.NotSaved says so.
	SaveOnAnswer bool
}

// ImageKind is what an ImageEvent reports.
type ImageKind int

// Kinds of image events, in the order a turn reports them.
const (
	// ImageStarted: the turn's entry was written; Entry holds it, generating
	// (in a SaveOnAnswer turn, once the server answers: after ImageRetrying).
	ImageStarted ImageKind = iota
	// ImageRetrying: the request failed and is tried again; Retry says when.
	ImageRetrying
	// ImageTask: the server's asynchronous task was polled; Task holds its
	// state and how long it has been polled.
	ImageTask
	// ImageListed: the server answered; Entry lists the images kept, none
	// saved yet.
	ImageListed
	// ImagesDropped: the server sent more images than api.MaxImages;
	// Dropped counts those left out and Text says so.
	ImagesDropped
	// ImageFetching: image Index downloads; Done bytes of Total (-1 when
	// unknown) arrived.
	ImageFetching
	// ImageSaved: image Index is done: Image has its Path, or its Error;
	// Format is the saved file's (session.FormatPNG…).
	ImageSaved
	// ImageEnded: the turn is complete, failed or cancelled (Entry.Status);
	// Entry is as written (never, for a SaveOnAnswer turn that got no
	// answer), and Err is why it failed.
	ImageEnded
	// ImageSaveFailed: a record could not be written; it waits for the next
	// save.
	ImageSaveFailed
)

// ImageEvent is one thing that happened in an image turn. Entries are
// copies: the receiver may keep them.
type ImageEvent struct {
	Kind    ImageKind
	Entry   session.Entry
	Retry   api.RetryInfo
	Task    api.ImageTask
	Index   int
	Done    int64
	Total   int64
	Image   session.Image
	Format  string
	Dropped int
	Text    string
	Err     error
}

// ImageOutcome is how an image turn ended.
type ImageOutcome struct {
	// Entry is the turn's entry as last written.
	Entry session.Entry
	// Created is the server's time stamp of the result, when it sent one.
	Created int64
	// Dropped counts the images the server sent past api.MaxImages.
	Dropped int
	// NotSaved is set when a SaveOnAnswer turn got no answer: nothing of
	// it was written, and Entry never was.
	NotSaved bool
}

// RunImage runs one image turn on the session w, reporting to emit. It
// returns the request's error, if any (cancelling ctx gives
// context.Canceled, and an answer without images an error saying so); the
// entry is saved either way (unless ImageTurn.SaveOnAnswer and no answer),
// and errors of saving are reported as ImageSaveFailed events and by
// w.Unsaved. An image that fails (a download, a damaged
// file, the byte budget) is marked with its error; the others are kept.
func RunImage(ctx context.Context, cfg ImageConfig, w *session.Writer, t ImageTurn, emit func(ImageEvent)) (ImageOutcome, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = session.MaxGenerationBytes
	}
	r := &imageRun{cfg: cfg, w: w, emit: emit}
	return r.run(ctx, t)
}

type imageRun struct {
	cfg  ImageConfig
	w    *session.Writer
	emit func(ImageEvent)
	// number is the turn's number among the image turns of its session,
	// from 1, in its files' names; oneshot the folder of a session that has
	// no journal.
	number  int
	oneshot string
	// held, in a SaveOnAnswer turn, writes its entry once the server
	// answers.
	held held
}

// saved reports a failed write; the writer keeps the record for later.
func (r *imageRun) saved(err error) {
	if err != nil {
		r.emit(ImageEvent{Kind: ImageSaveFailed, Err: err})
	}
}

func (r *imageRun) run(ctx context.Context, t ImageTurn) (ImageOutcome, error) {
	req := imageRequest(t.Params, t.Prompt)
	if err := validateImage(&req); err != nil {
		return ImageOutcome{}, notStarted(err)
	}
	snap := r.w.Snapshot()
	parent, again := "", t.Again != ""
	if again {
		found := false
		for _, e := range snap.Entries {
			if e.ID == t.Again && e.Kind == session.KindImage {
				parent, found = e.Parent, true
			}
		}
		if !found {
			return ImageOutcome{}, notStarted(fmt.Errorf("no image turn %q on this branch to draw again", t.Again))
		}
	}
	r.number = 1
	for _, e := range snap.All {
		if e.Kind == session.KindImage {
			r.number++
		}
	}
	started := r.cfg.Now()
	ip := t.Params
	e := session.Entry{Kind: session.KindImage, Time: started.UTC(), ImagePrompt: t.Prompt, ImageParams: &ip, Status: session.StatusStreaming}
	r.held.hold(t.SaveOnAnswer, func() {
		if snap.Title == "" && len(snap.All) == 0 {
			r.saved(r.w.SetTitle(session.TitleFrom(t.Prompt)))
		}
		var err error
		if again {
			e, err = r.w.AppendAt(e, parent)
		} else {
			e, err = r.w.Append(e)
		}
		r.saved(err)
		r.emit(ImageEvent{Kind: ImageStarted, Entry: e})
	})

	var out ImageOutcome
	end := func(err error) (ImageOutcome, error) {
		e.LatencyMS = r.cfg.Now().Sub(started).Milliseconds()
		switch {
		case err == nil:
			e.Status = session.StatusComplete
		case errors.Is(err, context.Canceled):
			e.Status = session.StatusCancelled
		default:
			ee := session.ErrorEntry(err)
			e.Error, e.RequestID, e.Status = ee.Error, ee.RequestID, session.StatusFailed
		}
		if out.NotSaved {
			out.Entry = e
		} else {
			written, werr := r.w.Append(e)
			r.saved(werr)
			out.Entry = written
		}
		r.emit(ImageEvent{Kind: ImageEnded, Entry: out.Entry, Err: err})
		return out, err
	}
	res, err := r.cfg.Client.GenerateImage(ctx, req, api.Checked(),
		api.OnRetry(func(info api.RetryInfo) { r.emit(ImageEvent{Kind: ImageRetrying, Retry: info}) }),
		api.OnImageTask(func(task api.ImageTask) {
			r.held.settle(nil) // the server answered with a task: the turn is saved
			r.emit(ImageEvent{Kind: ImageTask, Task: task})
		}))
	out.NotSaved = r.held.settle(err)
	if err != nil {
		return end(err)
	}
	out.Created, out.Dropped = res.Created, res.Dropped
	for i, d := range res.Data {
		e.Images = append(e.Images, session.Image{Index: i, URL: d.URL, RevisedPrompt: d.RevisedPrompt})
	}
	if res.Dropped > 0 {
		r.emit(ImageEvent{Kind: ImagesDropped, Dropped: res.Dropped,
			Text: fmt.Sprintf("the server sent %d images; kept the first %d", len(res.Data)+res.Dropped, len(res.Data))})
	}
	if len(e.Images) == 0 {
		return end(errNoImages)
	}
	listed := e
	listed.Images = slices.Clone(e.Images) // the receiver may keep it
	r.emit(ImageEvent{Kind: ImageListed, Entry: listed})
	budget := r.cfg.MaxBytes
	for i, d := range res.Data {
		if ctx.Err() != nil {
			for k := i; k < len(e.Images); k++ {
				e.Images[k].Error = "not saved: cancelled"
			}
			return end(ctx.Err())
		}
		img := e.Images[i]
		data, used, err := r.fetch(ctx, i, d, budget)
		if err != nil && ctx.Err() != nil {
			err = errors.New("not saved: cancelled")
		}
		budget -= used
		var si session.SavedImage
		if err == nil {
			si, err = r.save(i, data)
		}
		if err != nil {
			img.Error = err.Error()
		} else {
			img.Path, img.Width, img.Height = si.Path, si.Width, si.Height
		}
		e.Images[i] = img
		r.emit(ImageEvent{Kind: ImageSaved, Index: i, Image: img, Format: si.Format})
	}
	return end(ctx.Err())
}

// fetch returns the bytes of image i, d, decoded or downloaded, at most
// session.MaxImageBytes of them and no more than the budget left of the
// generation, and how much of the budget it used: what it returns, or,
// for a download refused as too large, what was read of it.
func (r *imageRun) fetch(ctx context.Context, i int, d api.ImageData, budget int64) ([]byte, int64, error) {
	if r.cfg.Store == nil && r.cfg.Out == "" {
		return nil, 0, errors.New("not saved: there is no folder to save images in")
	}
	if budget <= 0 {
		return nil, 0, fmt.Errorf("not fetched: the images before it used up the %s one generation may hold", api.SizeText(r.cfg.MaxBytes))
	}
	limit := min(int64(session.MaxImageBytes), budget)
	var data []byte
	var err error
	used := int64(0)
	switch {
	case d.Error != "":
		return nil, 0, fmt.Errorf("the server failed this image: %s", d.Error)
	case d.B64JSON != "":
		data, err = session.DecodeB64(d.B64JSON, int(limit)) // refused before it is decoded
	case d.URL == "":
		return nil, 0, errors.New("the server sent neither a URL nor data for this image")
	default:
		data, err = r.cfg.Client.Download(ctx, d.URL, limit, func(done, total int64) {
			r.emit(ImageEvent{Kind: ImageFetching, Index: i, Done: done, Total: total})
		})
		if errors.Is(err, api.ErrTooLarge) {
			used = limit
		}
	}
	if errors.Is(err, api.ErrTooLarge) && limit < session.MaxImageBytes {
		return nil, used, fmt.Errorf("not kept: the images of one generation may hold %s in all, and only %s was left for this one", api.SizeText(r.cfg.MaxBytes), api.SizeText(budget))
	}
	return data, used + int64(len(data)), err
}

// save writes image i: to the Out folder, to the session's folder of the
// store, or to a one-shot folder when the session has no journal.
func (r *imageRun) save(i int, data []byte) (session.SavedImage, error) {
	if r.cfg.Out != "" {
		return session.SaveImageIn(r.cfg.Out, fmt.Sprintf("image-%d", i+1), data)
	}
	id := r.w.ID()
	if id == "" {
		if r.oneshot == "" {
			now := r.cfg.Now().UTC()
			r.oneshot = fmt.Sprintf("oneshot-%s-%09d", now.Format("20060102-150405"), now.Nanosecond())
		}
		id = r.oneshot
	}
	return r.cfg.Store.SaveImage(id, r.number, i+1, data)
}
