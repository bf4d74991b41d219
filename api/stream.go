package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Stream is a message reply arriving as server-sent events. Use it like
// bufio.Scanner:
//
//	for s.Next() {
//		ev := s.Current()
//	}
//	msg, err := s.Message(), s.Err()
//
// Unknown events are skipped. An error event ends the stream with an
// *APIError; the message assembled so far stays available.
//
// A reply that passes its size limit is cut there (see MaxReplySize): the
// event that passes it comes cut to fit, or not at all when nothing of it
// fits, then a message_delta with the stop reason StopSizeLimit and a
// message_stop, both made by the stream, as if the server had stopped
// there; the connection is closed at once, and Err is nil.
//
// A stream that sends more than its stall size allows of what adds
// nothing to the reply (see WithStallSize), or nothing of the reply for
// the stall timeout, ends with ErrStalled.
type Stream struct {
	body      io.ReadCloser
	cancel    context.CancelCauseFunc
	ctx       context.Context
	dec       *sseDecoder
	limits    streamLimits
	scrub     func(string) string // masks the client's credentials in a server's error text; nil for none
	idleR     *idleReader         // nil without an idle timeout
	stall     *time.Timer         // fails the stream when no content comes; nil without a stall timeout
	replay    []Event
	requestID string
	progress  int // acc.progress() after the last event that added to the reply
	oversized int // the bytes read of one event larger than the whole size limit, which cut the reply; 0 for none

	mu     sync.Mutex // guards acc's message against Message during Next
	acc    Accumulator
	cur    Event
	err    error
	done   bool
	closed atomic.Bool
	once   sync.Once
}

// stallEarned is how many bytes that add nothing to the reply (see
// WithStallSize) each byte of content lets a stream send, beyond its stall
// size: a server's keep-alives while a model thinks or a tool runs, never
// a megabyte of pings between two bytes of text.
const stallEarned = 16

// streamLimits are the limits of a stream's body, but for its size.
type streamLimits struct {
	idle      time.Duration // the longest the body may send nothing; 0 for no limit
	stall     time.Duration // the longest it may send no content; 0 for no limit
	stallSize int           // the most bytes that add nothing, before any content; 0 for no limit
}

func newStream(resp *http.Response, cancel context.CancelCauseFunc, limits streamLimits, limit int) *Stream {
	s := &Stream{
		body:      resp.Body,
		cancel:    cancel,
		ctx:       resp.Request.Context(),
		limits:    limits,
		requestID: resp.Header.Get("request-id"),
		acc:       Accumulator{limit: limit},
	}
	var r io.Reader = resp.Body
	if limits.idle > 0 {
		s.idleR = newIdleReader(resp.Body, limits.idle, func() { cancel(ErrIdleTimeout) })
		r = s.idleR
	}
	if limits.stall > 0 {
		s.stall = time.AfterFunc(limits.stall, func() { cancel(ErrStalled) })
	}
	s.dec = newSSEDecoder(r, limit+eventSlack)
	s.dec.idleMax = int64(limits.stallSize)
	return s
}

func replayStream(m *Message, requestID string) *Stream {
	return &Stream{replay: ReplayEvents(m), requestID: requestID}
}

// NewStreamFromMessage returns a stream that replays the events of the
// whole reply m, as StreamMessage does when the server answers with one,
// so that callers handle both answers alike.
func NewStreamFromMessage(m *Message) *Stream { return replayStream(m, "") }

// Next advances to the next event. It returns false at message_stop, at the
// end of the body, on error, or once the stream is closed; then Err tells
// which.
func (s *Stream) Next() bool {
	if s.done || s.closed.Load() {
		return false
	}
	if s.dec == nil {
		if len(s.replay) == 0 {
			s.done = true
			return false
		}
		s.cur, s.replay = s.replay[0], s.replay[1:]
		_ = s.add(s.cur)
		return true
	}
	if s.acc.Done() {
		return s.end(nil)
	}
	for {
		// No event is kept past the room left in the reply.
		s.dec.max = s.acc.room() + eventSlack
		raw, ok := s.dec.Next()
		if !ok {
			return s.end(s.readErr())
		}
		if raw.cut {
			ev, ok := salvage(raw.data)
			if !ok {
				// Junk, not a long answer: say so, and keep the reply as it was.
				return s.end(fmt.Errorf("%w of over %s, not a delta of text: it was dropped and the stream closed; check the server, or the base URL (base_url in the profile); the partial reply is kept",
					ErrMalformedEvent, SizeText(int64(len(raw.data)))))
			}
			if len(raw.data) > s.acc.limit {
				s.oversized = len(raw.data)
			}
			ev, _ = s.acc.fit(ev)
			return s.cutReply(ev)
		}
		if string(raw.data) == "[DONE]" {
			continue
		}
		ev, err := parseEvent(raw.name, raw.data)
		if err != nil {
			return s.end(fmt.Errorf("%w; check the server, or the base URL (base_url in the profile); the partial reply is kept", err))
		}
		if !knownEvent(ev.Type) {
			continue
		}
		if ev, cut := s.acc.fit(ev); cut {
			return s.cutReply(ev)
		}
		s.cur = ev
		if err := s.add(ev); err != nil {
			if ev.Error != nil && ev.Error.RequestID == "" {
				ev.Error.RequestID = s.requestID
			}
			if ev.Error != nil && s.scrub != nil {
				ev.Error.Message = s.scrub(ev.Error.Message)
			}
			return s.end(err)
		}
		if p := s.acc.progress(); p != s.progress {
			// Content or a block: the stream is not stalled.
			if s.limits.stallSize > 0 {
				s.dec.progressed(raw, p-s.progress, int64(s.limits.stallSize)+stallEarned*int64(p))
			}
			s.progress = p
			if s.stall != nil {
				s.stall.Reset(s.limits.stall)
			}
		}
		return true
	}
}

// cutReply ends the reply at its size limit: the connection is closed, and
// ev, what fits of the event that passed the limit, is delivered (unless
// nothing of it fits), then the message_delta and message_stop that end the
// reply.
func (s *Stream) cutReply(ev Event) bool {
	s.release()
	s.dec = nil
	s.replay = []Event{{Type: EventMessageDelta, Delta: Delta{StopReason: StopSizeLimit}}, {Type: EventMessageStop}}
	if ev.Type == "" {
		return s.Next()
	}
	s.cur = ev
	_ = s.add(ev)
	return true
}

func (s *Stream) readErr() error {
	err := s.dec.Err()
	if s.ctx != nil {
		if cause := context.Cause(s.ctx); cause != nil {
			switch {
			case errors.Is(cause, ErrIdleTimeout):
				return fmt.Errorf("%w for %s; the partial reply is kept", ErrIdleTimeout, s.limits.idle)
			case errors.Is(cause, ErrStalled):
				return fmt.Errorf("%w for %s, only keep-alives; the partial reply is kept", ErrStalled, s.limits.stall)
			case errors.Is(cause, ErrRequestTimeout):
				return fmt.Errorf("%w; the partial reply is kept", cause)
			}
			return cause
		}
	}
	if errors.Is(err, errNoProgress) {
		return fmt.Errorf("%w: over %s of pings, comments or events that added nothing to the reply (check the server, or raise stall_size in the profile); the partial reply is kept",
			ErrStalled, SizeText(int64(s.limits.stallSize)))
	}
	if err != nil {
		return fmt.Errorf("read stream: %w; the partial reply is kept", err)
	}
	if !s.acc.Done() {
		return ErrStreamCut
	}
	return nil
}

func (s *Stream) end(err error) bool {
	s.mu.Lock()
	s.acc.Finish()
	s.mu.Unlock()
	s.err = err
	s.done = true
	s.Close()
	return false
}

// OversizedEvent returns the bytes read of the one event that was, alone,
// larger than the reply's whole size limit, and so cut the reply; 0 when
// none did. No model streams that much in one event: such a reply was cut
// because of the server, not because the answer was long (see
// OversizedNote).
func (s *Stream) OversizedEvent() int { return s.oversized }

// Current returns the event that Next advanced to.
func (s *Stream) Current() Event { return s.cur }

// add adds ev to the message.
func (s *Stream) add(ev Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.acc.Add(ev)
}

// Message returns the message assembled from the events so far. Unlike the
// other methods, it may be called while another goroutine is in Next: a
// caller can save what arrived while the stream stalls.
func (s *Stream) Message() Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.acc.Message()
}

// RequestID returns the request-id header of the response.
func (s *Stream) RequestID() string { return s.requestID }

// Err returns what ended the stream early: an *APIError for an error event,
// ErrStreamCut for a body that ended before message_stop, ErrIdleTimeout,
// ErrStalled, ErrRequestTimeout, ErrMalformedEvent, context.Canceled, or a read error. It is nil after a complete reply.
func (s *Stream) Err() error { return s.err }

// Close releases the connection and stops the idle and stall timers; Next
// then returns false. It is safe to call more than once.
func (s *Stream) Close() error {
	s.closed.Store(true)
	s.release()
	return nil
}

// release closes the connection and stops the idle and stall timers, once.
func (s *Stream) release() {
	s.once.Do(func() {
		if s.idleR != nil {
			s.idleR.stop()
		}
		if s.stall != nil {
			s.stall.Stop()
		}
		if s.cancel != nil {
			s.cancel(nil)
		}
		if s.body != nil {
			s.body.Close()
		}
	})
}
