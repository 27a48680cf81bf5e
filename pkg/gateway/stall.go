package gateway

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"docsuite/pkg/apierr"
)

// bodyIdle is how long an upload may send nothing before it is refused,
// as nginx's client_body_timeout (60 s, deploy/nginx/docsuite.conf) does in
// front of a gateway; the all-in-one has no nginx before it.
const bodyIdle = 60 * time.Second

// idleTimeout closes a kept-alive connection that sends no next request.
const idleTimeout = 120 * time.Second

// stallReader reads a request body with a read deadline renewed before
// every read: a client that stops sending in the middle of its upload is
// refused after idle instead of holding its connection and what it sent
// so far for ever. A transfer that keeps moving, however slowly, is never
// cut.
type stallReader struct {
	r    io.Reader
	rc   *http.ResponseController
	idle time.Duration
	// deadlines is false where the connection cannot take read
	// deadlines (an HTTP/2 stream, a test recorder): reads go on bare.
	deadlines bool
	// stalled is set once a read timed out: the deadline is left passed,
	// so that the server does not wait on the client to discard the rest
	// of its body before answering.
	stalled bool
}

func newStallReader(r io.Reader, w http.ResponseWriter, idle time.Duration) *stallReader {
	return &stallReader{r: r, rc: http.NewResponseController(w), idle: idle, deadlines: idle > 0}
}

func (s *stallReader) Read(p []byte) (int, error) {
	if s.deadlines {
		if err := s.rc.SetReadDeadline(time.Now().Add(s.idle)); err != nil {
			s.deadlines = false
		}
	}
	n, err := s.r.Read(p)
	var ne net.Error
	if err != nil && errors.As(err, &ne) && ne.Timeout() {
		s.stalled = true
		return n, &stalledError{idle: s.idle, err: err}
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

// stalledError is an upload that sent nothing for idle.
type stalledError struct {
	idle time.Duration
	err  error
}

func (e *stalledError) Error() string {
	return fmt.Sprintf("upload stalled: nothing received for %s: %v", seconds(e.idle), e.err)
}

func (e *stalledError) Unwrap() error { return e.err }

// stalled refuses an upload that stopped sending, as a malformed body (the
// file never arrived whole). The server cancels the request's context when
// its connection's read fails; fail answers a stall all the same, the
// client may still be reading.
func stalled(e *stalledError) error {
	return apierr.Wrap(apierr.NotMultipart, e, fmt.Sprintf("The upload stalled: nothing was received for %s, the file is incomplete", seconds(e.idle)))
}

// seconds writes a duration as the API's messages do: "60 s", "0.3 s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}
