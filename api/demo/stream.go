package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"muse/api"
)

// Wire shapes of the stream events, exactly as the service sends them.
type (
	messageStartEvent struct {
		Type    string      `json:"type"`
		Message api.Message `json:"message"`
	}
	blockStartEvent struct {
		Type         string           `json:"type"`
		Index        int              `json:"index"`
		ContentBlock api.ContentBlock `json:"content_block"`
	}
	blockDeltaEvent struct {
		Type  string `json:"type"`
		Index int    `json:"index"`
		Delta any    `json:"delta"`
	}
	blockStopEvent struct {
		Type  string `json:"type"`
		Index int    `json:"index"`
	}
	typeOnly struct {
		Type string `json:"type"`
	}
	textDelta struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	thinkingDelta struct {
		Type     string `json:"type"`
		Thinking string `json:"thinking"`
	}
	signatureDelta struct {
		Type      string `json:"type"`
		Signature string `json:"signature"`
	}
	inputJSONDelta struct {
		Type        string `json:"type"`
		PartialJSON string `json:"partial_json"`
	}
	messageDelta struct {
		StopReason   string  `json:"stop_reason"`
		StopSequence *string `json:"stop_sequence"`
	}
	outputUsage struct {
		OutputTokens int `json:"output_tokens"`
	}
	messageDeltaEvent struct {
		Type  string       `json:"type"`
		Delta messageDelta `json:"delta"`
		Usage outputUsage  `json:"usage"`
	}
)

// eventWriter writes server-sent events and flushes each one.
type eventWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

// send writes one event; an error means the client is gone.
func (e *eventWriter) send(event string, data any) error {
	b, err := marshal(data)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, b); err != nil {
		return err
	}
	if err := e.rc.Flush(); err != nil && err != http.ErrNotSupported {
		return err
	}
	return nil
}

// sleep pauses for d, on the timer Options.pause stands in for; it reports
// false if ctx ended first.
func (h *handler) sleep(ctx context.Context, d time.Duration) bool {
	if h.opts.pause != nil {
		return h.opts.pause(ctx, d)
	}
	return sleep(ctx, d)
}

// sleep pauses for d; it reports false if ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// stream sends plan p as server-sent events, pausing delay between deltas.
// It returns as soon as the client goes away.
func (h *handler) stream(w http.ResponseWriter, r *http.Request, id string, req *api.MessageRequest, p *plan, delay time.Duration) {
	hdr := w.Header()
	hdr.Set("Content-Type", "text/event-stream")
	hdr.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	ew := &eventWriter{w: w, rc: http.NewResponseController(w)}
	ctx := r.Context()

	// stop_reason and stop_sequence are null until message_delta.
	head := replyHead(id, req, 1)
	head.Extra = map[string]json.RawMessage{"stop_reason": jsonNull, "stop_sequence": jsonNull}
	start := messageStartEvent{Type: "message_start", Message: head}
	if ew.send("message_start", start) != nil {
		return
	}
	sent, textSent := 0, 0
	var paused time.Duration // since the last ping
	pingEvery := h.opts.PingEvery
	if pingEvery <= 0 {
		pingEvery = 5 * time.Second
	}
	fail := func() {
		_ = ew.send("error", newErrorBody(errOverloaded, "Overloaded"))
	}
	for i, b := range p.blocks {
		if ew.send("content_block_start", blockStartEvent{"content_block_start", i, b.start}) != nil {
			return
		}
		if i == 0 && ew.send("ping", typeOnly{"ping"}) != nil {
			return
		}
		for _, c := range b.citations {
			if ew.send("content_block_delta", blockDeltaEvent{"content_block_delta", i, citationsDelta{api.DeltaCitations, c}}) != nil {
				return
			}
		}
		for _, d := range b.deltas {
			if sent > 0 && !h.sleep(ctx, delay) {
				return
			}
			if sent > 0 {
				// Counted in the pauses made, not read from a clock.
				if paused += delay; paused >= pingEvery {
					paused = 0
					if ew.send("ping", typeOnly{"ping"}) != nil {
						return
					}
				}
			}
			if ctx.Err() != nil {
				return
			}
			var delta any
			switch b.start.Type {
			case api.BlockThinking:
				delta = thinkingDelta{"thinking_delta", d}
			case api.BlockToolUse:
				delta = inputJSONDelta{"input_json_delta", d}
			default:
				if p.failAfter > 0 && textSent == p.failAfter {
					fail()
					return
				}
				textSent++
				delta = textDelta{"text_delta", d}
			}
			if ew.send("content_block_delta", blockDeltaEvent{"content_block_delta", i, delta}) != nil {
				return
			}
			sent++
		}
		if b.start.Type == api.BlockThinking && b.complete {
			sig := signatureDelta{"signature_delta", b.signature}
			if ew.send("content_block_delta", blockDeltaEvent{"content_block_delta", i, sig}) != nil {
				return
			}
		}
		if ew.send("content_block_stop", blockStopEvent{"content_block_stop", i}) != nil {
			return
		}
	}
	if p.failAfter > 0 {
		fail() // the reply was shorter than failAfter text deltas
		return
	}
	var seq *string
	if p.stopSequence != "" {
		seq = &p.stopSequence
	}
	if ew.send("message_delta", messageDeltaEvent{
		Type:  "message_delta",
		Delta: messageDelta{StopReason: p.stopReason, StopSequence: seq},
		Usage: outputUsage{OutputTokens: p.outputTokens},
	}) != nil {
		return
	}
	_ = ew.send("message_stop", typeOnly{"message_stop"})
}
