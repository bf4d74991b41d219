package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"muse/api"
	"muse/session"
	"muse/ui/sanitize"
)

// maxStdin caps piped input appended to a -p prompt.
const maxStdin = 16 << 20

// printMode sends one prompt and writes the reply to stdout.
func printMode(ctx context.Context, env Env, f *flags, cfg *config, client *api.Client) int {
	prompt := f.print
	if env.StdinPiped && env.Stdin != nil {
		in, err := readStdin(env.Stdin, maxStdin)
		if err != nil {
			return fail(env, err)
		}
		if strings.TrimSpace(in) != "" {
			prompt += "\n\n" + in
		}
	}
	params := cfg.params
	var history []api.MessageParam
	var store *session.Store
	var sess *session.Session
	if f.cont {
		var err error
		if store, err = openStore(env.Getenv); err != nil {
			return fail(env, err)
		}
		if sess, err = store.Latest(); err != nil {
			return fail(env, fmt.Errorf("continue the latest session: %w", err))
		}
		history = session.History(sess.Entries)
		params = mergeParams(sess.Params, params, f)
	}
	req := api.MessageRequest{
		Model: params.Model, MaxTokens: params.MaxTokens, System: params.System,
		Temperature: params.Temperature, TopP: params.TopP, TopK: params.TopK, StopSequences: params.StopSequences,
		Messages: append(history, api.TextMessage(api.RoleUser, prompt)),
	}
	clean := sanitize.Plain
	if env.StdoutTTY {
		clean = sanitize.Text
	}
	msg, requestID, err := fetch(ctx, env, f, client, req, clean)
	if sess != nil && (err == nil || msg != nil) {
		if serr := appendExchange(store, sess, prompt, msg, requestID, err, params); serr != nil {
			fmt.Fprintf(env.Stderr, "muse: %s\n", sanitize.Line(serr.Error()))
		}
	}
	if err != nil {
		return fail(env, err)
	}
	if f.json {
		out, err := json.Marshal(msg)
		if err != nil {
			return fail(env, fmt.Errorf("encode the reply: %w", err))
		}
		env.Stdout.Write(append(out, '\n'))
	}
	return ExitOK
}

// fetch sends the request, streaming text to stdout unless --json asks for
// the whole message. It returns what arrived even when it fails.
func fetch(ctx context.Context, env Env, f *flags, client *api.Client, req api.MessageRequest, clean func(string) string) (*api.Message, string, error) {
	onRetry := api.OnRetry(func(r api.RetryInfo) {
		fmt.Fprintf(env.Stderr, "muse: %s; retrying in %s\n", sanitize.Line(r.Err.Error()), r.Wait.Round(1e8))
	})
	if f.noStream {
		m, err := client.CreateMessage(ctx, req, onRetry)
		if err != nil {
			return nil, "", err
		}
		if !f.json {
			writeText(env.Stdout, clean(m.Text()))
		}
		return m, "", nil
	}
	s, err := client.StreamMessage(ctx, req, onRetry)
	if err != nil {
		return nil, "", err
	}
	defer s.Close()
	w := &tracker{w: env.Stdout}
	for s.Next() {
		ev := s.Current()
		if !f.json && ev.Type == api.EventContentBlockDelta && ev.Delta.Type == api.DeltaText {
			io.WriteString(w, clean(ev.Delta.Text))
		}
	}
	if !f.json && w.n > 0 && !w.newline {
		io.WriteString(env.Stdout, "\n")
	}
	m := s.Message()
	if err := s.Err(); err != nil {
		if errors.Is(err, context.Canceled) {
			return &m, s.RequestID(), context.Canceled
		}
		return &m, s.RequestID(), err
	}
	return &m, s.RequestID(), nil
}

func writeText(w io.Writer, s string) {
	io.WriteString(w, s)
	if s != "" && !strings.HasSuffix(s, "\n") {
		io.WriteString(w, "\n")
	}
}

// tracker remembers whether the output ended with a newline.
type tracker struct {
	w       io.Writer
	n       int
	newline bool
}

func (t *tracker) Write(p []byte) (int, error) {
	if len(p) > 0 {
		t.n += len(p)
		t.newline = p[len(p)-1] == '\n'
	}
	return t.w.Write(p)
}

// mergeParams starts from a session's settings and applies the flags given.
func mergeParams(saved, fromFlags session.Params, f *flags) session.Params {
	p := saved
	if f.set("model") || p.Model == "" {
		p.Model = fromFlags.Model
	}
	if f.set("max-tokens") || p.MaxTokens == 0 {
		p.MaxTokens = fromFlags.MaxTokens
	}
	if f.set("system") {
		p.System = fromFlags.System
	}
	if f.set("temperature") {
		p.Temperature = fromFlags.Temperature
	}
	if f.set("top-p") {
		p.TopP = fromFlags.TopP
	}
	if f.set("top-k") {
		p.TopK = fromFlags.TopK
	}
	if f.set("stop") {
		p.StopSequences = fromFlags.StopSequences
	}
	return p
}

// appendExchange saves a one-shot's prompt and reply to the continued session.
func appendExchange(store *session.Store, sess *session.Session, prompt string, msg *api.Message, requestID string, err error, p session.Params) error {
	n := session.NextSeq(sess.Entries)
	id := func() string { n++; return fmt.Sprintf("e%d", n-1) }
	now := time.Now().UTC()
	user := session.Entry{ID: id(), Kind: session.KindUser, Time: now, Text: prompt}
	if e := store.Append(sess, user); e != nil {
		return e
	}
	if msg != nil && len(msg.Content) > 0 {
		status := session.StatusComplete
		if err != nil {
			status = session.StatusFailed
		}
		a := session.Entry{ID: id(), Kind: session.KindAssistant, Time: now, Message: msg, Status: status, RequestID: requestID, Params: &p}
		if e := store.Append(sess, a); e != nil {
			return e
		}
	}
	return nil
}
