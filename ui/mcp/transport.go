package mcp

import (
	"context"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"muse/ui/toolrun"
)

// closeWait bounds how long closing a session may take: the streamable
// HTTP transport's DELETE, which ends the session on the server, or
// closing a stdio server's pipes. Close waits for it, so that muse does
// not exit before the server heard of it.
const closeWait = 3 * time.Second

// sseTransport is the legacy HTTP+SSE transport with its event stream,
// the GET that carries every answer, detached from the context of the
// start: the SDK ties the GET to the context Connect gets, which ends once
// the server started, so every later call would fail. The start's context
// still ends the stream until Connect returns; then only Close does.
type sseTransport struct{ *sdk.SSEClientTransport }

func (t sseTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	streamCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	conn, err := t.SSEClientTransport.Connect(streamCtx)
	if !stop() && err == nil {
		conn.Close()
		err = ctx.Err()
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return sseConn{conn, cancel}, nil
}

// sseConn is a connection of sseTransport: closing it ends its stream.
type sseConn struct {
	sdk.Connection
	cancel context.CancelFunc
}

func (c sseConn) Close() error {
	err := c.Connection.Close()
	c.cancel()
	return err
}

// closeConn closes a session, waiting for it within closeWait, then stops
// its process.
func closeConn(sess *sdk.ClientSession, proc *toolrun.Process) {
	if sess != nil {
		done := make(chan struct{})
		go func() { sess.Close(); close(done) }()
		t := time.NewTimer(closeWait)
		select {
		case <-done:
		case <-t.C:
		}
		t.Stop()
	}
	if proc != nil {
		proc.Stop()
	}
}
