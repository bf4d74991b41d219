package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"muse/api"
	"muse/session"
	"muse/ui/images"
	"muse/ui/sanitize"
)

// imageOut is one image of `muse -p --image --json`: the server's result
// with the saved file added (the base64 data itself is left out).
type imageOut struct {
	URL           string `json:"url,omitempty"`
	RevisedPrompt string `json:"revised_prompt,omitempty"`
	Path          string `json:"path,omitempty"`
	Format        string `json:"format,omitempty"`
	Width         int    `json:"width,omitempty"`
	Height        int    `json:"height,omitempty"`
	Error         string `json:"error,omitempty"`
}

// imageParams collects the image settings of the command line and the session.
func imageParams(f *flags, cfg *config, saved *session.ImageParams) session.ImageParams {
	var ip session.ImageParams
	if saved != nil {
		ip = *saved
	}
	if f.set("image-model") || ip.Model == "" {
		ip.Model = cfg.imageModel
	}
	if f.set("size") {
		ip.Size = f.size
	}
	if f.set("negative") {
		ip.NegativePrompt = f.negative
	}
	if f.set("prompt-extend") {
		ip.PromptExtend = api.Bool(f.promptExtend)
	}
	if f.set("watermark") {
		ip.Watermark = api.Bool(f.watermark)
	}
	return ip
}

// imageMode generates images from the -p prompt, saves them and prints one
// line per image: the saved path, then a tab and the URL when there was one.
//
// The turn is saved like one of the chat screen: the entry first, so that the
// images have a session to be saved under, then the entry with its images.
func imageMode(ctx context.Context, env Env, f *flags, cfg *config, client *api.Client, prompt string, w *session.Writer, params session.Params) int {
	ip := imageParams(f, cfg, params.Image)
	if ip.Model == "" {
		return fail(env, usagef("no image model: set MUSE_IMAGE_MODEL or pass --image-model"))
	}
	req := ip.Request(prompt)
	if err := req.Validate(); err != nil {
		return fail(env, err)
	}
	started := time.Now()
	if snap := w.Snapshot(); snap.Title == "" && len(snap.All) == 0 {
		_ = w.SetTitle(session.TitleFrom(prompt))
	}
	var lostErr error // see printTurn
	save := func(e session.Entry) session.Entry {
		e, err := w.Append(e)
		if err != nil && lost(w) {
			lostErr = err
		}
		return e
	}
	entry := save(session.Entry{Kind: session.KindImage, Time: started.UTC(), ImagePrompt: prompt, ImageParams: &ip, Status: session.StatusStreaming})
	res, err := client.GenerateImage(ctx, req)
	if err != nil {
		e := session.ErrorEntry(err)
		entry.Error, entry.RequestID, entry.Status = e.Error, e.RequestID, session.StatusFailed
		if errors.Is(err, context.Canceled) {
			entry.Error, entry.Status = nil, session.StatusCancelled
		}
		entry.LatencyMS = time.Since(started).Milliseconds()
		save(entry)
		return notSaved(env, lostErr, fail(env, err))
	}
	// Where the files go: --out, or the images folder of the session.
	var store *session.Store
	if f.out == "" {
		if store, err = openStore(env); err != nil {
			return fail(env, err)
		}
	}
	dirID := w.ID()
	if dirID == "" { // not saved (--no-save, or the session could not be created)
		dirID = "oneshot-" + time.Now().UTC().Format("20060102-150405")
	}
	turn, _ := strconv.Atoi(strings.TrimPrefix(entry.ID, "e"))
	var outs []imageOut
	failed := 0
	for i, d := range res.Data {
		out := imageOut{URL: d.URL, RevisedPrompt: d.RevisedPrompt}
		img := session.Image{Index: i, URL: d.URL, RevisedPrompt: d.RevisedPrompt}
		data, err := images.Fetch(ctx, client, d, nil)
		var si session.SavedImage
		if err == nil {
			if f.out != "" {
				si, err = session.SaveImageIn(f.out, fmt.Sprintf("image-%d", i+1), data)
			} else {
				si, err = store.SaveImage(dirID, turn, i+1, data)
			}
		}
		if err != nil {
			failed++
			out.Error, img.Error = err.Error(), err.Error()
			fmt.Fprintf(env.Stderr, "muse: image %d: %s\n", i+1, sanitize.Line(err.Error()))
		} else {
			out.Path, out.Format, out.Width, out.Height = si.Path, si.Format, si.Width, si.Height
			img.Path, img.Width, img.Height = si.Path, si.Width, si.Height
		}
		entry.Images = append(entry.Images, img)
		outs = append(outs, out)
		if rp := strings.TrimSpace(d.RevisedPrompt); rp != "" && rp != strings.TrimSpace(prompt) && !f.quiet {
			fmt.Fprintf(env.Stderr, "muse: revised prompt %d: %s\n", i+1, sanitize.Line(rp))
		}
		if !f.json && out.Path != "" {
			line := sanitize.Line(out.Path)
			if out.URL != "" {
				line += "\t" + sanitize.Line(out.URL)
			}
			fmt.Fprintln(env.Stdout, line)
		}
	}
	entry.LatencyMS = time.Since(started).Milliseconds()
	entry.Status = session.StatusComplete
	if len(res.Data) == 0 {
		entry.Status, entry.Error = session.StatusFailed, &session.ErrorInfo{Message: "the server returned no images"}
	}
	save(entry)
	if f.json {
		data, _ := json.Marshal(struct {
			Created int64      `json:"created"`
			Data    []imageOut `json:"data"`
		}{res.Created, outs})
		env.Stdout.Write(append(sanitize.JSON(data), '\n'))
	}
	code := ExitOK
	if len(res.Data) == 0 {
		fmt.Fprintln(env.Stderr, "muse: the server returned no images")
		code = ExitFailed
	}
	if failed > 0 {
		code = ExitFailed
	}
	return notSaved(env, lostErr, code)
}
