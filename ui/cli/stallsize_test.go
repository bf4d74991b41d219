package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// pingsThenText is a server that streams 256 KiB of pings, each padded to
// 1 KiB (a gateway's keep-alives while a model thinks), then "done".
func pingsThenText() *httptest.Server {
	ping := "event: ping\ndata: {\"type\":\"ping\",\"pad\":\"" + strings.Repeat("p", 1000) + "\"}\n\n"
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":0}}}\n\n")
		for range 256 {
			if _, err := io.WriteString(w, ping); err != nil {
				return
			}
		}
		io.WriteString(w, "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
			"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"done\"}}\n\n"+
			"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n"+
			"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\n"+
			"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n")
	}))
}

// TestStallSizeKey checks the profile's stall_size against a server that
// sends 256 KiB of keep-alives before its answer: api's default (1 MiB)
// lets them through; stall_size = 65536 ends the reply after 64 KiB of
// them, with a message that names the key; 0 is no limit; config show
// prints it; a negative one is refused, and a misspelt one gets its name
// suggested.
func TestStallSizeKey(t *testing.T) {
	srv := pingsThenText()
	defer srv.Close()
	for _, c := range []struct {
		key      string
		code     int
		out, err string
	}{
		{"", ExitOK, "done", ""},
		{"stall_size = 65536\n", ExitFailed, "", "over 64 KiB of pings, comments or events that added nothing to the reply (check the server, or raise stall_size in the profile)"},
		{"stall_size = 0\n", ExitOK, "done", ""},
		{"stall_size = 4194304\n", ExitOK, "done", ""},
		{"stall_size = -1\n", ExitUsage, "", "stall_size must be at least 0, got -1"},
		{"stal_size = 65536\n", ExitUsage, "", `unknown key "stal_size" in [profiles.w] (did you mean "stall_size"?)`},
	} {
		env := map[string]string{"MUSE_API_KEY": "k"}
		writeConfig(t, env, "default_profile = \"w\"\n[profiles.w]\nbase_url = \""+srv.URL+"\"\nmodel = \"m\"\n"+c.key)
		r := runMain(t, env, "", "-p", "hi")
		if r.code != c.code || !strings.Contains(r.stdout, c.out) || !strings.Contains(r.stderr, c.err) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", c.key, r.code, r.stdout, r.stderr)
		}
		if c.code == ExitOK && c.key != "" {
			if r := runMain(t, env, "", "config", "show"); r.code != ExitOK || !strings.Contains(r.stdout, c.key) {
				t.Errorf("%q: config show: %+v", c.key, r)
			}
		}
	}
}
