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
	"muse/ui"
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
	if f.cont || f.resume != "" {
		var err error
		if store, err = openStore(env.Getenv); err != nil {
			return fail(env, err)
		}
		var unlock func() error
		if sess, unlock, err = openSession(store, f); err != nil {
			return fail(env, err)
		}
		defer unlock()
		history = session.History(sess.Entries)
		params = mergeParams(sess.Params, params, f)
	}
	if f.image {
		return imageMode(ctx, env, f, cfg, client, prompt, store, sess)
	}
	req := params.Request(append(history, api.TextMessage(api.RoleUser, prompt)), ui.ToolDefs(cfg.tools))
	clean := sanitize.Plain
	if env.StdoutTTY {
		clean = sanitize.Text
	}
	var turn *oneShot
	var progress func(api.Message)
	if sess != nil {
		turn = newOneShot(store, sess, prompt, params)
		if err := turn.begin(); err != nil {
			return fail(env, err)
		}
		progress = turn.checkpoint
	}
	msg, requestID, err := fetch(ctx, env, f, client, req, clean, progress)
	if turn != nil {
		if serr := turn.end(msg, requestID, err); serr != nil {
			fmt.Fprintf(env.Stderr, "muse: %s\n", sanitize.Line(serr.Error()))
		}
	}
	if err != nil {
		return fail(env, err)
	}
	// Tool calls: printed as JSON, or, with --allow-tools, run and answered
	// until the model stops calling them.
	maxRounds := cfg.maxRounds
	if maxRounds <= 0 {
		maxRounds = ui.DefaultToolRounds
	}
	for round := 0; msg.StopReason == api.StopToolUse; round++ {
		if !f.allowTools {
			if !f.json {
				printToolCalls(env.Stdout, msg)
			}
			break
		}
		if round >= maxRounds {
			fmt.Fprintf(env.Stderr, "muse: stopped after %d tool rounds\n", maxRounds)
			break
		}
		results := runToolCalls(ctx, env, cfg.tools, msg)
		if len(results) == 0 {
			break
		}
		req.Messages = append(req.Messages, api.MessageParam{Role: api.RoleAssistant, Blocks: msg.Content},
			api.MessageParam{Role: api.RoleUser, Blocks: results})
		if msg, _, err = fetch(ctx, env, f, client, req, clean, nil); err != nil {
			return fail(env, err)
		}
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
func fetch(ctx context.Context, env Env, f *flags, client *api.Client, req api.MessageRequest, clean func(string) string, progress func(api.Message)) (*api.Message, string, error) {
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
		if progress != nil {
			progress(s.Message())
		}
	}
	if !f.json && w.n > 0 && !w.newline {
		io.WriteString(env.Stdout, "\n")
	}
	m := s.Message()
	return &m, s.RequestID(), s.Err()
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
	if f.set("thinking-budget") {
		p.ThinkingBudget = fromFlags.ThinkingBudget
	}
	return p
}

// oneShot records a -p exchange in a continued session: the prompt first,
// then the reply checkpointed at least once a second while it streams, then
// the reply as it ended.
type oneShot struct {
	store       *session.Store
	sess        *session.Session
	params      session.Params
	user, reply session.Entry
	last        time.Time
}

func newOneShot(store *session.Store, sess *session.Session, prompt string, p session.Params) *oneShot {
	n := session.NextSeq(sess.Entries)
	now := time.Now().UTC()
	return &oneShot{
		store: store, sess: sess, params: p,
		user:  session.Entry{ID: fmt.Sprintf("e%d", n), Kind: session.KindUser, Time: now, Text: prompt},
		reply: session.Entry{ID: fmt.Sprintf("e%d", n+1), Kind: session.KindAssistant, Time: now, Params: &p},
	}
}

func (o *oneShot) begin() error {
	o.last = time.Now()
	return o.store.Append(o.sess, o.user)
}

// checkpoint writes the reply so far, at most once a second.
func (o *oneShot) checkpoint(m api.Message) {
	if time.Since(o.last) < time.Second {
		return
	}
	o.last = time.Now()
	e := o.reply
	e.Message, e.Status = &m, session.StatusStreaming
	_ = o.store.Checkpoint(o.sess, e) // best effort: the final record is what counts
}

// end writes the reply as it ended: what arrived (failed or cancelled when
// the request did not finish), then the error, if the request failed.
func (o *oneShot) end(m *api.Message, requestID string, err error) error {
	cancelled := errors.Is(err, context.Canceled)
	if m != nil && len(m.Content) > 0 {
		e := o.reply
		e.Message, e.RequestID = m, requestID
		e.LatencyMS = time.Since(e.Time).Milliseconds()
		switch {
		case cancelled:
			e.Status = session.StatusCancelled
		case err != nil:
			e.Status = session.StatusFailed
		}
		if werr := o.store.Append(o.sess, e); werr != nil {
			return werr
		}
	}
	if err == nil || cancelled {
		return nil
	}
	e := session.ErrorEntry(err)
	e.ID, e.Time = fmt.Sprintf("e%d", session.NextSeq(o.sess.Entries)), time.Now().UTC()
	return o.store.Append(o.sess, e)
}

// openSession opens the session -c or -r names, locked for this process.
func openSession(store *session.Store, f *flags) (*session.Session, func() error, error) {
	var id string
	if f.cont {
		latest, err := store.Latest()
		if errors.Is(err, session.ErrNoSessions) {
			return nil, nil, errNoSession
		}
		if err != nil {
			return nil, nil, fmt.Errorf("continue the latest session: %w", err)
		}
		id = latest.ID
	} else {
		info, err := store.Find(f.resume)
		if err != nil {
			return nil, nil, err
		}
		id = info.ID
	}
	unlock, err := store.Lock(id)
	if err != nil {
		return nil, nil, err
	}
	sess, err := store.Load(id)
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return sess, unlock, nil
}
