package gateway

import (
	"errors"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/gin-gonic/gin"
)

// answerIdle is how long an answer may go unread, or read at less than
// ANSWER_MIN_RATE a second, before its connection is cut (boundWrites):
// the same 60 s an upload may stall (bodyIdle).
const answerIdle = 60 * time.Second

// boundWrites bounds the writing of every answer, as stallReader bounds
// the reading of an upload: the answer goes out in pieces of
// ANSWER_MIN_RATE × answerIdle bytes, each with a write deadline
// answerIdle ahead, so a client that reads at that rate or faster is
// never cut, and one that reads nothing, or a byte a second, is cut
// within answerIdle of falling behind: the handler returns, its
// synchronous slot (MAX_INFLIGHT) is given back and the connection is
// closed, logged at WARN with the request's id. Without it, a client that
// sent a request and never read the answer held its handler, its slot
// and its connection for as long as it kept the connection open, once the
// answer (crops of return_crops=true, a fulltext, a large /result)
// filled the sockets' buffers.
//
// No deadline is set before the handler writes (it may run for
// PIPELINE_TIMEOUT first, and a 100 Continue goes out when it first reads
// the body): the one of each piece is set just before it. Once the
// handler returns, a last one answerIdle ahead bounds what net/http
// still holds of the answer in its buffers (up to 6 KiB, the end of a
// chunked body); net/http clears the write deadline after each answer
// (Go 1.26: conn.serve), so its own error answers to the connection's
// next request, and that request's answer, start with none.
func (s *Server) boundWrites() gin.HandlerFunc {
	return func(c *gin.Context) {
		if s.answerIdle <= 0 || s.answerMinRate <= 0 {
			c.Next()
			return
		}
		rc := http.NewResponseController(c.Writer)
		if err := rc.SetWriteDeadline(time.Time{}); err != nil {
			// A writer that takes no deadlines (a test recorder): the
			// answer goes out bare.
			c.Next()
			return
		}
		w := &paceWriter{ResponseWriter: c.Writer, rc: rc, idle: s.answerIdle,
			piece: max(1, int(float64(s.answerMinRate)*s.answerIdle.Seconds()))}
		c.Writer = w
		c.Next()
		c.Writer = w.ResponseWriter
		if w.cut == nil {
			_ = rc.SetWriteDeadline(time.Now().Add(s.answerIdle))
			return
		}
		s.metrics.answersCut.WithLabelValues(c.FullPath()).Inc()
		s.log.Warn("client did not read its answer: connection closed", "path", c.FullPath(),
			"status", w.Status(), "bytes_sent", w.Size(), "request_id", requestID(c),
			"task_id", c.GetString(taskIDKey), "min_rate", s.answerMinRate, "idle", seconds(s.answerIdle))
	}
}

// paceWriter writes an answer in pieces, each with a write deadline idle
// ahead (see boundWrites).
type paceWriter struct {
	gin.ResponseWriter
	rc    *http.ResponseController
	idle  time.Duration
	piece int
	// cut is the error of the write that timed out: the deadline is left
	// passed, so that nothing more waits on the client.
	cut error
}

func (w *paceWriter) Write(p []byte) (int, error) {
	if w.cut != nil {
		return 0, w.cut
	}
	var n int
	for len(p) > 0 {
		k := min(len(p), w.piece)
		if err := w.rc.SetWriteDeadline(time.Now().Add(w.idle)); err != nil {
			return n, err
		}
		m, err := w.ResponseWriter.Write(p[:k])
		n += m
		if err != nil {
			if isTimeout(err) {
				w.cut = err
			}
			return n, err
		}
		p = p[k:]
	}
	return n, nil
}

func (w *paceWriter) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// Unwrap lets http.ResponseController reach the connection (its read
// deadlines: stallReader, boundUnread).
func (w *paceWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// isTimeout tells a write cut by its deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()
}
