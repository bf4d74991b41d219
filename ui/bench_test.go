package ui

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
	"muse/theme"
	"muse/ui/conversation"
	"muse/ui/engine"
	"muse/ui/internal/streamtest"
	"muse/ui/turns"
)

// benchModel is a sized chat screen without a server; it never runs commands.
func benchModel(b testing.TB, entries int, width, height int) Model {
	b.Helper()
	th, err := theme.New("dark", true)
	if err != nil {
		b.Fatal(err)
	}
	var sess *session.Session
	if entries > 0 {
		sess = &session.Session{ID: "bench", Params: session.Params{Model: "m", MaxTokens: 4096}}
		for i := 0; i < entries; i++ {
			id := fmt.Sprintf("e%d", i+1)
			if i%2 == 0 {
				sess.Entries = append(sess.Entries, session.Entry{ID: id, Kind: session.KindUser, Text: fmt.Sprintf("question %d about channels", i)})
				continue
			}
			text := fmt.Sprintf("## Answer %d\n\nA paragraph with **bold** and `code`.\n\n- one\n- two\n\n```go\nfmt.Println(%d)\n```\n", i, i)
			sess.Entries = append(sess.Entries, session.Entry{ID: id, Kind: session.KindAssistant,
				Message: &api.Message{Model: "m", Content: []api.ContentBlock{{Type: api.BlockText, Text: text}}, StopReason: "end_turn"}})
		}
	}
	var w *session.Writer
	if sess != nil {
		w = session.NewWriter(nil, sess.Params)
		if err := w.AppendAll(sess.Entries); err != nil {
			b.Fatal(err)
		}
	}
	m := New(Options{Theme: th, Profile: termenv.TrueColor, Writer: w,
		Params: session.Params{Model: "m", MaxTokens: 4096}})
	next, _ := m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	m = next.(Model)
	_ = m.View()
	return m
}

func event(t string, f func(*api.Event)) turns.Item {
	ev := api.Event{Type: t}
	if f != nil {
		f(&ev)
	}
	return turns.Item{Event: &engine.Event{Kind: engine.StreamEvent, Stream: ev}}
}

// BenchmarkStreaming streams a 20,000-word mixed markdown reply as 20,000
// deltas through Update, with a View after each Update (stricter than the
// program, which batches a frame's deltas). The clock is injected and
// advances by the pace for each delta, so the ~30 renders a second the
// screen allows happen as they would at that pace: 20 ms a delta (a fast
// model) and 2 ms (a flood). It reports the renders, the CPU per render, and
// the process CPU time, garbage collection included, as a multiple of one
// glamour render of the final text (cpu-x).
func BenchmarkStreaming(b *testing.B) {
	for _, pace := range []time.Duration{20 * time.Millisecond, 2 * time.Millisecond} {
		b.Run(pace.String(), func(b *testing.B) { benchStreaming(b, streamtest.MixedMarkdown(20000), pace) })
	}
}

func benchStreaming(b *testing.B, text string, pace time.Duration) {
	parts := streamtest.Deltas(text)
	const width, height = 100, 40
	th, _ := theme.New("dark", true)
	// One glamour render of the final text, in CPU time: the best of three,
	// so the ratio errs on the strict side. A new conversation renders the
	// finished reply whole, as the screen shows it after a resume.
	fullRender := func() time.Duration {
		final := []session.Entry{{ID: "e2", Kind: session.KindAssistant,
			Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: text}}}}}
		best := time.Duration(1<<63 - 1)
		for k := 0; k < 3; k++ {
			runtime.GC()
			c := conversation.New(conversation.NewRenderer(th, termenv.TrueColor), conversation.KeyMap{}).SetSize(width, height)
			start := streamtest.CPUTime()
			_ = c.SetEntries(final).View()
			best = min(best, streamtest.CPUTime()-start)
		}
		return best
	}
	b.ReportMetric(float64(len(parts)), "deltas")
	var total, one time.Duration
	renders := 0
	for i := 0; i < b.N; i++ {
		now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
		m := benchModel(b, 0, width, height)
		m.opts.Now = func() time.Time { return now }
		m.now = m.opts.Now
		m.comp = m.comp.SetInput(m.comp.Input().SetValue("write a long document"))
		next, _ := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
		m = next.(Model)
		id := m.turns.Turn().ID
		ch := make(chan turns.Item)
		feed := func(it turns.Item) {
			now = now.Add(pace)
			next, _ := m.Update(turns.BatchMsg{ID: id, Items: []turns.Item{it}, Ch: ch})
			m = next.(Model)
			_ = m.View()
		}
		live := session.Entry{ID: "e2", Kind: session.KindAssistant, Status: session.StatusStreaming, Message: &api.Message{Model: "m"}}
		runtime.GC()
		start := streamtest.CPUTime()
		feed(turns.Item{Event: &engine.Event{Kind: engine.ReplyStarted, Entry: live}})
		feed(event(api.EventMessageStart, func(e *api.Event) { e.Message = &api.Message{ID: "msg", Model: "m"} }))
		feed(event(api.EventContentBlockStart, func(e *api.Event) { e.Block = &api.ContentBlock{Type: api.BlockText} }))
		for _, p := range parts {
			feed(event(api.EventContentBlockDelta, func(e *api.Event) { e.Delta = api.Delta{Type: api.DeltaText, Text: p} }))
		}
		renders += m.conv.LiveRenders()
		feed(event(api.EventContentBlockStop, nil))
		feed(event(api.EventMessageDelta, func(e *api.Event) { e.Delta.StopReason = api.StopEndTurn }))
		feed(event(api.EventMessageStop, nil))
		final := live
		final.Status = session.StatusComplete
		final.Message = &api.Message{Model: "m", Content: []api.ContentBlock{{Type: api.BlockText, Text: text}}, StopReason: api.StopEndTurn}
		feed(turns.Item{Event: &engine.Event{Kind: engine.ReplyEnded, Entry: final}})
		next, _ = m.Update(turns.BatchMsg{ID: id, Items: []turns.Item{{Done: &turns.Done{}}}, Ch: ch})
		m = next.(Model)
		view := m.View()
		total += streamtest.CPUTime() - start
		if m.turns.Turn() != nil || !strings.Contains(view, "stop end_turn") {
			b.Fatalf("reply did not finish:\n%s", view)
		}
		if es := m.conv.Entries(); es[len(es)-1].Message.Text() != text {
			b.Fatalf("assembled %d bytes, want %d", len(es[len(es)-1].Message.Text()), len(text))
		}
	}
	one = fullRender()
	b.ReportMetric(float64(renders)/float64(b.N), "renders")
	if renders > 0 {
		b.ReportMetric(float64(total.Microseconds())/1000/float64(renders), "ms/render")
	}
	b.ReportMetric(float64(total)/float64(b.N)/float64(one), "cpu-x")
	b.ReportMetric(float64(one.Milliseconds()), "full-render-ms")
}

// BenchmarkKeystroke is Update plus View for one typed rune.
func BenchmarkKeystroke(b *testing.B) {
	for _, n := range []int{10, 10000} {
		b.Run(fmt.Sprintf("history=%d", n), func(b *testing.B) {
			m := benchModel(b, n, 100, 40)
			key := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if i%200 == 0 {
					m.comp = m.comp.SetInput(m.comp.Input().Reset())
				}
				next, _ := m.Update(key)
				m = next.(Model)
				_ = m.View()
			}
		})
	}
}

// BenchmarkResize is a resize with 10,000 messages, to the next frame.
func BenchmarkResize(b *testing.B) {
	m := benchModel(b, 10000, 100, 40)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := 100 - 20*(i%2) - 1
		next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: 40})
		m = next.(Model)
		_ = m.View()
	}
}

// BenchmarkScrollToTop jumps from the bottom to the top of 10,000 messages.
func BenchmarkScrollToTop(b *testing.B) {
	m := benchModel(b, 10000, 100, 40)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := tea.KeyMsg{Type: tea.KeyHome}
		if i%2 == 1 {
			k = tea.KeyMsg{Type: tea.KeyEnd}
		}
		next, _ := m.Update(k)
		m = next.(Model)
		_ = m.View()
	}
}

// BenchmarkOpenToFirstFrame loads a saved session of 10,000 messages from
// disk and draws the first frame of the chat screen.
func BenchmarkOpenToFirstFrame(b *testing.B) {
	store, err := session.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	src := benchModel(b, 10000, 100, 40).conv.Entries()
	wr := session.NewWriter(store, session.Params{Model: "m", MaxTokens: 4096})
	if err := wr.AppendAll(src); err != nil {
		b.Fatal(err)
	}
	id := wr.ID()
	wr.Close()
	th, _ := theme.New("dark", true)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, err := store.OpenWriter(id)
		if err != nil || len(w.Branch()) != 10000 {
			b.Fatalf("load: %v", err)
		}
		m := New(Options{Theme: th, Profile: termenv.TrueColor, Writer: w, Store: store})
		next, _ := m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
		if v := next.(Model).View(); !strings.Contains(v, "question 9998") {
			b.Fatalf("first frame does not show the last reply:\n%s", v)
		}
		w.Close()
	}
}

// BenchmarkOpenPreviewToFirstFrame is BenchmarkOpenToFirstFrame as muse -c
// opens a session: the first frame shows a preview while the journal is
// replayed in the background, which is not counted.
func BenchmarkOpenPreviewToFirstFrame(b *testing.B) {
	store, err := session.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	src := benchModel(b, 10000, 100, 40).conv.Entries()
	wr := session.NewWriter(store, session.Params{Model: "m", MaxTokens: 4096})
	if err := wr.AppendAll(src); err != nil {
		b.Fatal(err)
	}
	id := wr.ID()
	wr.Close()
	th, _ := theme.New("dark", true)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w, preview, err := store.OpenWriterAsync(id, nil)
		if err != nil {
			b.Fatalf("load: %v", err)
		}
		m := New(Options{Theme: th, Profile: termenv.TrueColor, Writer: w, Preview: preview, Store: store})
		next, _ := m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
		if v := next.(Model).View(); !strings.Contains(v, "question 9998") {
			b.Fatalf("first frame does not show the last reply:\n%s", v)
		}
		b.StopTimer()
		w.Close()
		b.StartTimer()
	}
}
