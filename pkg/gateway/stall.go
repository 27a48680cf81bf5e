package gateway

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"docsuite/pkg/apierr"
)

// bodyIdle is how long an upload may send nothing, or less than
// UPLOAD_MIN_RATE a second, before it is refused (stallReader), before
// nginx's client_body_timeout (90 s, deploy/nginx/docsuite.conf) in front
// of a gateway would close the connection without an answer; the
// all-in-one has no nginx before it.
const bodyIdle = 60 * time.Second

// idleTimeout closes a kept-alive connection that sends no next request.
const idleTimeout = 120 * time.Second

// stallReader reads a request body with a read deadline that moves only
// with the upload's progress: it lies idle ahead, and is pushed idle
// further each time another minRate × idle bytes have arrived. A client
// that stops sending in the middle of its upload is refused after idle,
// and one that trickles (a byte a second) after idle too, instead of
// holding its connection and what it sent so far for ever: the deadline
// was renewed before every read, and a body trickled at a byte a second
// kept its connection, nginx's in front of it, and its share of
// UPLOAD_MEMORY_BYTES for as long as it went on (a 30 MB file: a year).
// A transfer at minRate or faster is never cut.
type stallReader struct {
	r    io.Reader
	rc   *http.ResponseController
	idle time.Duration
	// need is the bytes that push the deadline (minRate × idle, at least
	// 1); got counts those received since it was last pushed, to due.
	need, got int64
	due       time.Time
	// last is when a read last returned bytes (or the deadline was first
	// set), to tell a stall from a trickle.
	last time.Time
	// minRate is UPLOAD_MIN_RATE, for the answer's message.
	minRate int64
	// deadlines is false where the connection cannot take read
	// deadlines (an HTTP/2 stream, a test recorder): reads go on bare.
	deadlines bool
	// stalled is set once a read timed out: the deadline is left passed,
	// so that the server does not wait on the client to discard the rest
	// of its body before answering.
	stalled bool
}

func newStallReader(r io.Reader, w http.ResponseWriter, idle time.Duration, minRate int64) *stallReader {
	need := max(1, int64(float64(minRate)*idle.Seconds()))
	return &stallReader{r: r, rc: http.NewResponseController(w), idle: idle, need: need, got: need,
		minRate: minRate, deadlines: idle > 0}
}

func (s *stallReader) Read(p []byte) (int, error) {
	if s.deadlines && s.got >= s.need {
		now := time.Now()
		if s.due.IsZero() {
			s.last = now
		}
		s.due, s.got = now.Add(s.idle), 0
		if err := s.rc.SetReadDeadline(s.due); err != nil {
			s.deadlines = false
		}
	}
	n, err := s.r.Read(p)
	s.got += int64(n)
	if n > 0 {
		s.last = time.Now()
	}
	var ne net.Error
	if err != nil && errors.As(err, &ne) && ne.Timeout() {
		s.stalled = true
		e := &stalledError{idle: s.idle, got: s.got, need: s.need, minRate: s.minRate, err: err}
		// A last piece short of need, then nothing: a stall, not a
		// trickle.
		if quiet := time.Since(s.last); s.got == 0 || quiet >= s.idle/2 {
			e.quiet = max(quiet, s.idle/2).Round(s.idle / 10)
		}
		return n, e
	}
	return n, err
}

// done clears the deadline once the body is read, so that the request's
// processing and the connection's next request are not bound by it.
func (s *stallReader) done() {
	if s.deadlines && !s.stalled {
		_ = s.rc.SetReadDeadline(time.Time{})
	}
}

// stalledError is an upload that sent too little for idle: need bytes
// were due (minRate a second), got came; quiet, when set, is how long it
// had sent nothing (a stall rather than a trickle).
type stalledError struct {
	idle, quiet        time.Duration
	got, need, minRate int64
	err                error
}

func (e *stalledError) Error() string {
	return fmt.Sprintf("upload stalled: %d bytes received in %s, %d needed: %v", e.got, seconds(e.idle), e.need, e.err)
}

func (e *stalledError) Unwrap() error { return e.err }

// stalled refuses an upload that stopped sending, or sends too slowly, as
// a malformed body (the file never arrived whole). The server cancels the
// request's context when its connection's read fails; fail answers a stall
// all the same, the client may still be reading.
func stalled(e *stalledError) error {
	if e.quiet > 0 {
		return apierr.Wrap(apierr.NotMultipart, e, fmt.Sprintf("The upload stalled: nothing was received for %s, the file is incomplete", seconds(e.quiet)))
	}
	return apierr.Wrap(apierr.NotMultipart, e, fmt.Sprintf("The upload is too slow: %d bytes were received in %s, at least %d (UPLOAD_MIN_RATE=%d a second) are needed, the file is incomplete",
		e.got, seconds(e.idle), e.need, e.minRate))
}

// seconds writes a duration as the API's messages do: "60 s", "0.3 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}

// stalledKey marks, in a request's gin context, an upload refused as
// stalled (stallReader): its read deadline is left passed.
const stalledKey = "docsuite.stalled"

// boundUnread bounds the reading of what a request's handler left of its
// body: before it writes the answer, net/http reads up to 256 KiB of the
// rest, so as to keep the connection, with no deadline of its own. A
// client trickling a chunked body to a request refused before its body
// was read (a wrong Content-Type, a missing license or token, a field
// that belongs in the query) waited for its answer, and held the
// connection, for as long as those 256 KiB took: three days at a byte a
// second. The rest must now come within bodyIdle, or the answer goes out
// and the connection is closed. The server sets its own deadline again
// before it reads the connection's next request.
func (s *Server) boundUnread() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Next()
		if s.bodyIdle > 0 && !c.GetBool(stalledKey) {
			_ = http.NewResponseController(c.Writer).SetReadDeadline(time.Now().Add(s.bodyIdle))
		}
	}
}
