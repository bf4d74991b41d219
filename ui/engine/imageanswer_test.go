package engine

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
)

// saveOnAnswer runs a SaveOnAnswer image turn of prompt on a new session
// of st, cancelling ctx when cancelOn reports, and returns the session as
// saved (nil when none was), the outcome, the kinds of events and the error.
func saveOnAnswer(t *testing.T, ctx context.Context, c *api.Client, st *session.Store, cancelOn func(ImageEvent) bool) (*session.Session, ImageOutcome, []ImageKind, error) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := session.NewWriter(st, params)
	var mu sync.Mutex
	var evs []ImageEvent
	out, err := RunImage(ctx, ImageConfig{Client: c, Store: st}, w, ImageTurn{Prompt: "a red cat", Params: imageParams, SaveOnAnswer: true}, func(ev ImageEvent) {
		mu.Lock()
		evs = append(evs, ev)
		mu.Unlock()
		if cancelOn != nil && cancelOn(ev) {
			cancel()
		}
	})
	kinds := kindsOf(evs)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	list, lerr := st.List()
	if lerr != nil {
		t.Fatal(lerr)
	}
	if len(list) == 0 {
		return nil, out, kinds, err
	}
	sess, lerr := st.Load(list[0].ID)
	if lerr != nil {
		t.Fatal(lerr)
	}
	return sess, out, kinds, err
}

// A SaveOnAnswer image turn (-p --image of a new session) whose request
// got no answer, from a server that cannot be reached or a turn cancelled
// before the server answered, writes nothing: no session holds the prompt
// alone. One the server answered is saved as before: with its images, with
// the server's error, or cancelled once the server's task was under way.
func TestImageSaveOnAnswer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	st := store(t)
	sess, out, kinds, err := saveOnAnswer(t, context.Background(), api.New(closed, api.WithAccessToken("t"), api.WithMaxRetries(0)), st, nil)
	if err == nil || !out.NotSaved || sess != nil || fmt.Sprint(kinds) != fmt.Sprint([]ImageKind{ImageEnded}) {
		t.Errorf("unreachable: err %v, outcome %+v, events %v, session %+v", err, out, kinds, sess)
	}

	// Cancelled while the server has not answered yet.
	asked, release := make(chan struct{}), make(chan struct{})
	hanging := client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(asked)
		<-release
	}))
	t.Cleanup(func() { close(release) }) // before the server closes
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-asked; cancel() }()
	sess, out, _, err = saveOnAnswer(t, ctx, hanging, store(t), nil)
	if !errors.Is(err, context.Canceled) || !out.NotSaved || sess != nil {
		t.Errorf("cancelled before the answer: err %v, outcome %+v, session %+v", err, out, sess)
	}

	// The server's own error is an answer: the turn is saved, failed.
	refusing := client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"type":"error","error":{"type":"invalid_request_error","message":"no"}}`)
	}))
	sess, out, _, err = saveOnAnswer(t, context.Background(), refusing, store(t), nil)
	if err == nil || out.NotSaved || sess == nil || sess.Title != "a red cat" || len(sess.Entries) != 1 || sess.Entries[0].Status != session.StatusFailed {
		t.Errorf("refused: err %v, outcome %+v, session %+v", err, out, sess)
	}

	// A task the server started is an answer: cancelled while it is
	// polled, the turn is saved, cancelled.
	var polls atomic.Int32
	sess, out, _, err = saveOnAnswer(t, context.Background(), taskServer(t, false, &polls), store(t), func(ev ImageEvent) bool { return ev.Kind == ImageTask })
	if !errors.Is(err, context.Canceled) || out.NotSaved || sess == nil || len(sess.Entries) != 1 || sess.Entries[0].Status != session.StatusCancelled {
		t.Errorf("task cancelled: err %v, outcome %+v, session %+v", err, out, sess)
	}

	// Answered with images: saved as any image turn, started first.
	sess, out, kinds, err = saveOnAnswer(t, context.Background(), client(t, demo.NewHandler(demo.Options{})), store(t), nil)
	want := []ImageKind{ImageStarted, ImageListed, ImageSaved, ImageEnded}
	if err != nil || out.NotSaved || sess == nil || sess.Entries[0].Status != session.StatusComplete || fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Errorf("answered: err %v, outcome %+v, events %v, session %+v", err, out, kinds, sess)
	}
}
