package ui

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/api/demo"
	"muse/session"
)

// testClock is a clock that moves only when the test says.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func newTestClock() *testClock {
	return &testClock{t: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestNotifyEndDecides checks when the end of a turn is announced: only
// with notify on, the terminal out of focus and the turn 5 s or longer,
// in the form the mode names, wrapped for tmux inside tmux.
func TestNotifyEndDecides(t *testing.T) {
	h := newHarness(t, 0)
	for _, tc := range []struct {
		name    string
		mode    string
		focus   []tea.Msg
		took    time.Duration
		tmux    bool
		want    string
		wantNil bool
	}{
		{name: "bell", mode: "bell", focus: []tea.Msg{tea.BlurMsg{}}, took: 5 * time.Second, want: "\a"},
		{name: "osc9", mode: "osc9", focus: []tea.Msg{tea.BlurMsg{}}, took: time.Minute, want: "\x1b]9;muse: reply ready\a"},
		{name: "osc777", mode: "osc777", focus: []tea.Msg{tea.BlurMsg{}}, took: time.Minute, want: "\x1b]777;notify;muse;muse: reply ready\a"},
		{name: "osc9 in tmux", mode: "osc9", focus: []tea.Msg{tea.BlurMsg{}}, took: time.Minute, tmux: true,
			want: "\x1bPtmux;\x1b\x1b]9;muse: reply ready\a\x1b\\"},
		{name: "focused again", mode: "bell", focus: []tea.Msg{tea.BlurMsg{}, tea.FocusMsg{}}, took: time.Minute, wantNil: true},
		{name: "never blurred", mode: "bell", took: time.Minute, wantNil: true},
		{name: "short", mode: "bell", focus: []tea.Msg{tea.BlurMsg{}}, took: 4999 * time.Millisecond, wantNil: true},
		{name: "off", mode: "off", focus: []tea.Msg{tea.BlurMsg{}}, took: time.Minute, wantNil: true},
		{name: "unset", mode: "", focus: []tea.Msg{tea.BlurMsg{}}, took: time.Minute, wantNil: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := newTestClock()
			var term lockedBuffer
			m := h.modelWith(t, nil, func(o *Options) {
				o.Notify, o.Terminal, o.Now = tc.mode, &term, clock.now
				if tc.tmux {
					o.Getenv = func(k string) string {
						if k == "TMUX" {
							return "/tmp/tmux-0/default,1,0"
						}
						return ""
					}
				}
			})
			for _, msg := range tc.focus {
				m, _ = updateModel(m, msg)
			}
			started := clock.now()
			clock.advance(tc.took)
			cmd := m.opts.notifyEnd(m.blurred, m.now().Sub(started), "reply")
			if tc.wantNil {
				if cmd != nil {
					t.Fatal("the end is announced")
				}
				return
			}
			if cmd == nil {
				t.Fatal("the end is not announced")
			}
			cmd()
			if got := term.String(); got != tc.want {
				t.Errorf("wrote %q, want %q", got, tc.want)
			}
		})
	}
}

// signalBuffer is a terminal that says when it was written to.
type signalBuffer struct {
	lockedBuffer
	wrote chan struct{}
}

func (s *signalBuffer) Write(p []byte) (int, error) {
	n, err := s.lockedBuffer.Write(p)
	select {
	case s.wrote <- struct{}{}:
	default:
	}
	return n, err
}

// TestLongReplyOutOfFocusRings runs a reply that takes 6 s by the clock
// while the terminal is out of focus, and checks that its end rings the
// bell through Options.Terminal.
func TestLongReplyOutOfFocusRings(t *testing.T) {
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	handler := demo.NewHandler(demo.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-release
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{srv: srv, store: store}
	clock := newTestClock()
	term := &signalBuffer{wrote: make(chan struct{}, 1)}
	m := h.modelWith(t, nil, func(o *Options) { o.Notify, o.Terminal, o.Now = "bell", term, clock.now })
	tm := start(t, m, 80, 24)
	tm.Send(tea.BlurMsg{})
	send(tm, "hello")
	<-arrived // the turn has started
	clock.advance(6 * time.Second)
	close(release)
	<-term.wrote
	if got := term.String(); got != "\a" {
		t.Errorf("wrote %q, want the bell", got)
	}
	quit(t, tm)
}
