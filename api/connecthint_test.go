package api

import (
	"context"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
)

// TestConnectErrorsSayWhatToDo checks that a connection that could not be
// made says what to do next: nothing listening at the address, or no such
// host. Each dial fails at once (a stand-in dialer), so nothing waits.
func TestConnectErrorsSayWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		name string
		dial error
		want string
	}{
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}, "nothing listens there: start the server, or fix the base URL"},
		{"no such host", &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "nosuch.invalid", IsNotFound: true}}, "no such host: check the base URL"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			transport := &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) { return nil, tc.dial }}
			c := New("https://api.example.test", WithAPIKey("k"), WithMaxRetries(0), WithHTTPClient(&http.Client{Transport: transport}))
			_, err := c.CreateMessage(context.Background(), MessageRequest{Model: "m", MaxTokens: 1, Messages: []MessageParam{{Role: RoleUser, Blocks: []ContentBlock{{Type: BlockText, Text: "hi"}}}}})
			if err == nil {
				t.Fatal("a failed dial gave no error")
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "muse doctor") {
				t.Fatalf("error %q does not say %q and muse doctor", err, tc.want)
			}
		})
	}
}
