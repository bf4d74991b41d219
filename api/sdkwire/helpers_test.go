//go:build !race

package sdkwire_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"reflect"
	"strings"

	"muse/api"
)

// serverToolStream is api's recorded web-search reply (see
// api/servertool_test.go), read from its file.
var serverToolStream = func() string {
	b, err := os.ReadFile("../testdata/servertool.sse")
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// evStop ends a stream.
const evStop = `{"type":"message_stop"}`

// sse joins name, data pairs into an event-stream body.
func sse(events ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(events); i += 2 {
		b.WriteString("event: " + events[i] + "\ndata: " + events[i+1] + "\n\n")
	}
	return b.String()
}

// testRequest is the smallest request: one user message.
func testRequest() api.MessageRequest {
	return api.MessageRequest{Model: "m", MaxTokens: 100, Messages: []api.MessageParam{api.TextMessage(api.RoleUser, "hi")}}
}

// drain reads a stream to its end: the message, the event types, the error.
func drain(s *api.Stream) (api.Message, []string, error) {
	var types []string
	for s.Next() {
		types = append(types, s.Current().Type)
	}
	return s.Message(), types, s.Err()
}

// jsonEqual reports whether two JSON texts hold the same values.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// pngOf is a w×h px PNG.
func pngOf(w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		panic(err)
	}
	return b.Bytes()
}
