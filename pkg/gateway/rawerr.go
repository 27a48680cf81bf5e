package gateway

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"

	"docsuite/pkg/apierr"
)

// netHTTPErrorHeaders are the headers net/http writes on the answers it
// sends itself, before any handler runs, to a request it cannot read.
const netHTTPErrorHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// jsonErrListener hands out connections whose plain-text answers from
// net/http itself (431 for headers over its limit, 400 for a malformed
// request line or a missing Host, 501 for an unknown transfer encoding,
// 505 for an unknown protocol version) are rewritten as the API's JSON
// error, 400 bad_request (errno 27), as nginx's are in the compose
// deployment: a client of the all-in-one or a gateway exposed directly
// gets the same envelope as from any other error.
type jsonErrListener struct{ net.Listener }

func (l jsonErrListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return jsonErrConn{c}, nil
}

// jsonErrConn rewrites net/http's own error answers (see jsonErrListener).
type jsonErrConn struct{ net.Conn }

// Write passes p on, unless it is one of net/http's own error answers,
// which it writes in one call: then the JSON answer is written instead.
func (c jsonErrConn) Write(p []byte) (int, error) {
	alt, ok := rewriteNetHTTPError(p)
	if !ok {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(alt); err != nil {
		return 0, err
	}
	return len(p), nil
}

// CloseWrite half-closes the connection when the underlying one can, as
// net/http does after its 431 answer.
func (c jsonErrConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// rewriteNetHTTPError returns the JSON answer for p when p is an answer
// net/http wrote itself: "HTTP/1.1 <status>", its error headers, and a
// body that repeats the status or names the unsupported transfer
// encoding. Handler answers always carry a Date header and never match.
func rewriteNetHTTPError(p []byte) ([]byte, bool) {
	const proto = "HTTP/1.1 "
	if !bytes.HasPrefix(p, []byte(proto)) {
		return nil, false
	}
	i := bytes.Index(p, []byte(netHTTPErrorHeaders))
	if i < 0 {
		return nil, false
	}
	status, body := p[len(proto):i], p[i+len(netHTTPErrorHeaders):]
	if !bytes.Equal(body, status) && !bytes.HasSuffix(body, []byte("Unsupported transfer encoding")) {
		return nil, false
	}
	env := apierr.New(apierr.BadRequest, "").Envelope()
	env.Detail = []apierr.Detail{{Loc: []string{"request"}, Msg: string(status), Type: "value_error.http"}}
	js, err := json.Marshal(env)
	if err != nil {
		return nil, false
	}
	head := fmt.Sprintf("HTTP/1.1 %d Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n", env.Code, len(js))
	return append([]byte(head), js...), true
}
