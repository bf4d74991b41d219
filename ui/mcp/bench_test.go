package mcp

import (
	"context"
	"encoding/json"
	"testing"
)

// BenchmarkFirstTurnThreeStdio measures what the first turn waits for with
// three stdio servers: starting them in parallel, the handshake and their
// tool lists (the servers are this test binary, a Go program that starts
// in a few milliseconds; node servers take longer to start themselves).
func BenchmarkFirstTurnThreeStdio(b *testing.B) {
	servers := []Server{helper(b, "a", "sdk"), helper(b, "b", "sdk"), helper(b, "c", "sdk")}
	for b.Loop() {
		m := New(servers, Options{})
		if got, notes := m.Tools(context.Background()); len(got) != 21 || len(notes) > 0 {
			b.Fatalf("%d tools, notes %q", len(got), notes)
		}
		b.StopTimer()
		m.Close()
		b.StartTimer()
	}
}

// BenchmarkCallStdio measures a tool call through a stdio server whose
// tool does nothing: muse's side and the protocol's round trip.
func BenchmarkCallStdio(b *testing.B) {
	benchCall(b, helper(b, "a", "sdk"))
}

// BenchmarkCallInProcess measures a tool call to a server in muse's
// process: the SDK's and muse's own cost, with no pipe.
func BenchmarkCallInProcess(b *testing.B) {
	benchCall(b, inProcess("a"))
}

func benchCall(b *testing.B, s Server) {
	m := New([]Server{s}, Options{})
	defer m.Close()
	got, _ := m.Tools(context.Background())
	var call func(context.Context, json.RawMessage) string
	for _, t := range got {
		if t.Def.Name == "a__echo" {
			call = func(ctx context.Context, in json.RawMessage) string { return t.Call(ctx, in).Text }
		}
	}
	in := json.RawMessage(`{"text":"hello"}`)
	b.ReportAllocs()
	for b.Loop() {
		if out := call(context.Background(), in); out != "hello" {
			b.Fatal(out)
		}
	}
}

// BenchmarkToolsStartedInBackground measures what a turn waits for once
// StartAll has started three stdio servers (the chat screen does so after
// its first frame): their tools, without a start.
func BenchmarkToolsStartedInBackground(b *testing.B) {
	m := New([]Server{helper(b, "a", "sdk"), helper(b, "b", "sdk"), helper(b, "c", "sdk")}, Options{})
	defer m.Close()
	m.StartAll()
	if got, notes := m.Tools(context.Background()); len(got) != 21 || len(notes) > 0 {
		b.Fatalf("%d tools, notes %q", len(got), notes)
	}
	b.ReportAllocs()
	for b.Loop() {
		m.Tools(context.Background())
	}
}
