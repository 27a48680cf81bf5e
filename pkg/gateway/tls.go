package gateway

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"

	"docsuite/pkg/apierr"
)

// tlsListener speaks TLS on each connection it accepts (TLS_CERT_FILE,
// TLS_KEY_FILE) and hands it out wrapped as jsonErrListener's are, so
// that net/http's own error answers are rewritten inside the encrypted
// stream. net/http does not see a *tls.Conn, so it neither offers HTTP/2
// (the suite speaks HTTP/1.1) nor sets Request.TLS (nothing reads it); the
// handshake runs on the first read, under the server's ReadHeaderTimeout.
type tlsListener struct {
	net.Listener
	cfg *tls.Config
}

func (l tlsListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return jsonErrConn{&plainHTTPConn{Conn: tls.Server(c, l.cfg), raw: c}}, nil
}

// plainHTTPConn answers a client that sends plain HTTP to the HTTPS port
// with the API's JSON 400 (errno 27), in plain text since that is all it
// reads, as net/http answers it on a listener it runs TLS on itself; any
// other failed handshake just closes the connection.
type plainHTTPConn struct {
	*tls.Conn
	raw  net.Conn
	once sync.Once
}

func (c *plainHTTPConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	var rh tls.RecordHeaderError
	if err != nil && errors.As(err, &rh) && rh.Conn != nil && looksLikeHTTP(rh.RecordHeader) {
		c.once.Do(func() { _, _ = c.raw.Write(plainHTTPAnswer) })
	}
	return n, err
}

// looksLikeHTTP tells whether the first five bytes of a connection are
// the start of an HTTP request line rather than of a TLS record.
func looksLikeHTTP(hdr [5]byte) bool {
	for _, m := range []string{"GET /", "HEAD ", "POST ", "PUT /", "OPTIO", "DELET", "PATCH", "CONNE", "TRACE"} {
		if bytes.Equal(hdr[:], []byte(m)) {
			return true
		}
	}
	return false
}

// plainHTTPAnswer is the answer to plain HTTP on the HTTPS port.
var plainHTTPAnswer = func() []byte {
	env := apierr.New(apierr.BadRequest, "").Envelope()
	env.Detail = []apierr.Detail{{Loc: []string{"request"}, Msg: plainHTTPMessage, Type: "value_error.http"}}
	js, err := json.Marshal(env)
	if err != nil {
		panic(err)
	}
	head := fmt.Sprintf("HTTP/1.1 %d Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n", env.Code, len(js))
	return append([]byte(head), js...)
}()

// plainHTTPMessage is the detail of that answer (nginx says the same in
// TLS mode, deploy/nginx/listen-tls.conf).
const plainHTTPMessage = "Client sent an HTTP request to an HTTPS port: use https://"
