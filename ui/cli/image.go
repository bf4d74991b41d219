package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"muse/api"
	"muse/session"
	"muse/ui/engine"
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
	override(f, "size", &ip.Size, f.size)
	override(f, "negative", &ip.NegativePrompt, f.negative)
	override(f, "prompt-extend", &ip.PromptExtend, api.Bool(f.promptExtend))
	override(f, "watermark", &ip.Watermark, api.Bool(f.watermark))
	return ip
}

// lackedImageFlags refuses the image flags that the image API in use has
// no parameter for (OpenAI's has no negative prompt, prompt extension or
// watermark), as /negative, /extend and /watermark do: given, they would
// be dropped without a word.
func lackedImageFlags(f *flags, imageAPI string) error {
	if imageAPI != api.ImageAPIOpenAI {
		return nil
	}
	for _, fl := range []string{"negative", "prompt-extend", "watermark"} {
		if f.set(fl) {
			return usagef("--%s: the openai image API (image_api) has no such parameter and muse never sends it there: leave --%s out", fl, fl)
		}
	}
	return nil
}

// imageMode generates images from the -p prompt, saves them and prints one
// line per image: the saved path, then a tab and the URL when there was one.
// The turn runs in the same engine as the chat screen's, and is saved the
// same way; with saveOnAnswer (a new session) only once the server answers,
// and saved reports whether it was.
func imageMode(ctx context.Context, env Env, f *flags, cfg *config, client *api.Client, prompt string, w *session.Writer, params session.Params, saveOnAnswer bool) (code int, saved bool) {
	if err := lackedImageFlags(f, client.ImageAPI()); err != nil {
		return fail(env, err), true
	}
	ip := imageParams(f, cfg, params.Image)
	if ip.Model == "" {
		return fail(env, usagef("no image model: set MUSE_IMAGE_MODEL or pass --image-model")), true
	}
	// Where the files go: --out, or the images folder of the session (of
	// a one-shot folder when the session is not saved).
	icfg := engine.ImageConfig{Client: client, Out: f.out}
	if f.out == "" {
		store, err := openStore(env)
		if err != nil {
			return fail(env, err), true
		}
		icfg.Store = store
	}
	var lostErr error // see printTurn
	var outs []imageOut
	failed := 0
	status := &statusLine{w: env.Stderr, tty: env.StderrTTY}
	emit := func(ev engine.ImageEvent) {
		switch ev.Kind {
		case engine.ImageRetrying:
			status.print("muse: %s; retrying in %s", sanitize.Line(ev.Retry.Err.Error()), ev.Retry.Wait.Round(1e8))
		case engine.ImageTask:
			status.show("muse: image task %s · %s", strings.ToLower(sanitize.Line(ev.Task.Status)), ev.Task.Elapsed.Round(time.Second))
		case engine.ImagesDropped:
			status.print("muse: %s", ev.Text)
		case engine.ImageSaved:
			outs = append(outs, imageOutOf(ev))
			img := ev.Image
			if img.Error != "" {
				failed++
				status.print("muse: image %d: %s", ev.Index+1, sanitize.Line(img.Error))
			}
			if rp := strings.TrimSpace(img.RevisedPrompt); rp != "" && rp != strings.TrimSpace(prompt) && !f.quiet {
				status.print("muse: revised prompt %d: %s", ev.Index+1, sanitize.Line(rp))
			}
			if !f.json && img.Path != "" {
				line := sanitize.Line(img.Path)
				if img.URL != "" {
					line += "\t" + sanitize.Line(img.URL)
				}
				fmt.Fprintln(env.Stdout, line)
			}
		case engine.ImageSaveFailed:
			if lost(w) {
				lostErr = ev.Err
			}
		}
	}
	res, err := engine.RunImage(ctx, icfg, w, engine.ImageTurn{Prompt: prompt, Params: ip, SaveOnAnswer: saveOnAnswer}, emit)
	status.clear()
	if err != nil {
		return notSaved(env, lostErr, fail(env, err)), !res.NotSaved
	}
	if f.json {
		data, _ := json.Marshal(struct {
			Created int64      `json:"created"`
			Data    []imageOut `json:"data"`
			Dropped int        `json:"dropped,omitempty"`
		}{res.Created, outs, res.Dropped})
		env.Stdout.Write(append(sanitize.JSON(data), '\n'))
	}
	code = ExitOK
	if failed > 0 {
		code = ExitFailed
	}
	return notSaved(env, lostErr, code), true
}

// imageOutOf is the --json record of the image an ImageSaved event reports.
func imageOutOf(ev engine.ImageEvent) imageOut {
	img := ev.Image
	out := imageOut{URL: img.URL, RevisedPrompt: img.RevisedPrompt, Error: img.Error}
	if img.Path != "" {
		out.Path, out.Format, out.Width, out.Height = img.Path, ev.Format, img.Width, img.Height
	}
	return out
}

// statusLine writes muse's lines to standard error, and, when it is a
// terminal, a line of progress that the next one replaces.
type statusLine struct {
	w    io.Writer
	tty  bool
	open bool // a progress line is shown
}

// show shows a line of progress, on a terminal only.
func (s *statusLine) show(format string, args ...any) {
	if !s.tty {
		return
	}
	fmt.Fprintf(s.w, "\r\x1b[K"+format, args...)
	s.open = true
}

// print writes a line, in place of the progress line shown.
func (s *statusLine) print(format string, args ...any) {
	s.clear()
	fmt.Fprintf(s.w, format+"\n", args...)
}

// clear removes the progress line shown.
func (s *statusLine) clear() {
	if s.open {
		io.WriteString(s.w, "\r\x1b[K")
		s.open = false
	}
}
