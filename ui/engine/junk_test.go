package engine

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"muse/api"
	"muse/session"
)

// A server that sends, after a first word, one data line of 8 MiB of '['
// (junk, past the size limit): the turn fails with api.ErrMalformedEvent,
// which says to check the server, and so does the error entry the chat
// screen shows, with no note that asks for a shorter answer; the word is kept in a failed reply; and the session goes on:
// the next request holds neither that reply nor its prompt, only valid
// turns, and gets its answer.
func TestJunkEventFailsTheTurnAndTheSessionGoesOn(t *testing.T) {
	var mu sync.Mutex // guards bodies
	var bodies [][]byte
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, body)
		first := len(bodies) == 1
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, startEvents+"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hi\"}}\n\n")
		if !first {
			io.WriteString(w, endEvents)
			return
		}
		io.WriteString(w, "data: ")
		junk := strings.Repeat("[", 64<<10)
		for range 128 {
			if _, err := io.WriteString(w, junk); err != nil {
				return // muse closed the connection
			}
		}
	})
	st := store(t)
	w := session.NewWriter(st, params)
	defer w.Close()
	cfg := Config{Client: client(t, h), MaxReplySize: 1 << 20}
	var notices []string
	var errEntry *session.ErrorInfo
	emit := func(ev Event) {
		if ev.Kind == Notice {
			notices = append(notices, ev.Text)
		}
		if ev.Kind == EntryAdded && ev.Entry.Kind == session.KindError {
			errEntry = ev.Entry.Error
		}
	}
	res, err := Run(context.Background(), cfg, w, Turn{Prompt: "first", Params: params}, emit, nil)
	if !errors.Is(err, api.ErrMalformedEvent) || !strings.Contains(err.Error(), "check the server") {
		t.Fatalf("err %v", err)
	}
	if res.Reply == nil || res.Reply.Status != session.StatusFailed || res.Message.Text() != "hi" {
		t.Errorf("reply %+v", res.Reply)
	}
	if errEntry == nil || errEntry.Type != "malformed_event" || !strings.Contains(errEntry.Hint, "check the server") {
		t.Errorf("the chat screen's error entry: %+v", errEntry)
	}
	for _, n := range notices {
		if strings.Contains(n, "shorter") {
			t.Errorf("a note asks for a shorter answer: %q", n)
		}
	}
	res, err = Run(context.Background(), cfg, w, Turn{Prompt: "second", Params: params}, emit, nil)
	mu.Lock()
	defer mu.Unlock()
	if err != nil || res.Message.Text() != "hi" || len(bodies) != 2 {
		t.Fatalf("next prompt: %q, %v", res.Message.Text(), err)
	}
	var sent api.MessageRequest
	if err := json.Unmarshal(bodies[1], &sent); err != nil {
		t.Fatal(err)
	}
	if len(sent.Messages) != 1 || sent.Messages[0].Role != api.RoleUser || !strings.Contains(string(bodies[1]), "second") || strings.Contains(string(bodies[1]), "first") {
		t.Errorf("next request: %s", bodies[1])
	}
}
