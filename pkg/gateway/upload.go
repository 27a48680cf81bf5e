package gateway

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"docsuite/pkg/apierr"
	"docsuite/pkg/decode"
	"docsuite/pkg/params"
)

// readCloser reads through r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (rc readCloser) Close() error { return rc.c.Close() }

// multipartSlack is what a multipart envelope may add around the file.
const multipartSlack = 1 << 20

// upload is the validated file of a request.
type upload struct {
	data   chunks
	size   int64
	format decode.Format
	// held is what data reserved of the upload memory budget, given back
	// by release.
	held int64
}

// release gives the upload's memory back to the budget; its data must
// not be used after.
func (s *Server) release(up *upload) {
	s.uploadMem.give(up.held)
	up.held, up.data = 0, nil
}

// readUpload reads the body field image of a multipart request (one file;
// a second image part is refused), enforcing the size limits while
// streaming (a 2 GB body is refused after MAX_FILE_BYTES, never buffered)
// and sniffing the format from the bytes.
// A form field named like one of the method's query parameters (fields)
// is refused with a 422 that says where it belongs: taken silently, a
// client's async=true sent as a field would get a sync answer.
// The file is read into memory reserved from UPLOAD_MEMORY_BYTES as it
// arrives (see readHeld); a request that finds too little left is
// refused as overloaded. The caller releases a returned upload.
func (s *Server) readUpload(c *gin.Context, fields map[string]bool) (res *upload, err error) {
	ct := c.GetHeader("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" {
		return nil, &apierr.Error{Code: apierr.NotMultipart, Detail: []apierr.Detail{{
			Loc: []string{"header", "Content-Type"}, Msg: fmt.Sprintf("expected multipart/form-data, got %q", ct), Type: "type_error"}}}
	}
	if c.Request.ContentLength > s.cfg.MaxFileBytes+multipartSlack {
		return nil, s.tooLarge()
	}
	body := http.MaxBytesReader(c.Writer, c.Request.Body, s.cfg.MaxFileBytes+multipartSlack)
	sr := newStallReader(body, c.Writer, s.bodyIdle, s.bodyMinRate)
	defer func() {
		sr.done()
		if sr.stalled {
			c.Set(stalledKey, true)
		}
	}()
	c.Request.Body = readCloser{sr, body}
	mr, err := c.Request.MultipartReader()
	if err != nil {
		return nil, apierr.Wrap(apierr.NotMultipart, err, "")
	}
	var up *upload
	defer func() {
		if err != nil && up != nil {
			s.release(up)
		}
	}()
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			if up == nil {
				return nil, missingImage()
			}
			return up, nil
		}
		if err != nil {
			return nil, s.bodyError(err)
		}
		if name := part.FormName(); fields[name] {
			return nil, fieldNotQuery(name)
		}
		if part.FormName() != "image" {
			_, _ = io.Copy(io.Discard, part)
			continue
		}
		if up != nil {
			// A second file would be dropped without a word: its
			// documents would be missing from an answer that looks whole.
			return nil, secondImage()
		}
		data, size, held, err := readHeld(part, s.cfg.MaxFileBytes, s.uploadMem)
		if errors.Is(err, errBudget) {
			return nil, apierr.New(apierr.Overloaded, "Service is overloaded, retry later: too little of UPLOAD_MEMORY_BYTES is left for the uploads in progress")
		}
		if err != nil {
			return nil, s.bodyError(err)
		}
		up = &upload{data: data, size: size, held: held}
		head := data.head()
		if size > s.cfg.MaxFileBytes {
			return nil, s.tooLarge()
		}
		if part.FileName() == "" && strings.TrimSpace(string(head)) != "" && size < 64 {
			// A text field named image: "text instead of a file".
			return nil, &apierr.Error{Code: apierr.UnsupportedFormat, Detail: []apierr.Detail{{
				Loc: []string{"body", "image"}, Msg: "expected a file, got a text value", Type: "type_error.file"}}}
		}
		if size < s.cfg.MinFileBytes {
			return nil, s.tooSmall()
		}
		f, err := decode.Sniff(head)
		if err != nil {
			return nil, &apierr.Error{Code: apierr.UnsupportedFormat, Cause: err, Detail: []apierr.Detail{{
				Loc: []string{"body", "image"}, Msg: "accepted formats: JPEG, PNG, TIFF, BMP, GIF, HEIC, HEIF, PDF, DJVU", Type: "value_error.format"}}}
		}
		// The parts after the image are still read: a parameter sent as a
		// field after the file is refused like one sent before it.
		up.format = f
	}
}

// tooLarge refuses a file over MAX_FILE_BYTES, naming the limit in
// force: the catalogue's message names the default (30 MB), which an
// installation that raised or lowered it would contradict.
func (s *Server) tooLarge() error {
	return apierr.New(apierr.FileTooLarge, "File is too large: it must be smaller than "+sizeText(s.cfg.MaxFileBytes))
}

// tooSmall refuses a file under MIN_FILE_BYTES, naming the limit in force.
func (s *Server) tooSmall() error {
	return apierr.New(apierr.FileTooSmall, "File is too small: it must be larger than "+sizeText(s.cfg.MinFileBytes))
}

// sizeText writes a byte count as the contract writes its limits: whole
// megabytes or kilobytes (of 1024) as "30 MB" or "1 KB", anything else in
// bytes.
func sizeText(n int64) string {
	switch {
	case n > 0 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	case n > 0 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// fieldNotQuery refuses a parameter sent as a multipart form field.
func fieldNotQuery(name string) error {
	return &apierr.Error{Code: apierr.InvalidParameter, Message: "Invalid request parameter: " + name,
		Detail: []apierr.Detail{{Loc: []string{"body", name},
			Msg:  fmt.Sprintf("%s is a query parameter: send it in the URL (?%s=...), not as a form field", name, name),
			Type: "value_error.location"}}}
}

// secondImage refuses a request carrying more than one image part.
func secondImage() error {
	return &apierr.Error{Code: apierr.InvalidParameter, Message: "Invalid request parameter: image",
		Detail: []apierr.Detail{{Loc: []string{"body", "image"},
			Msg:  "one file per request: send each file in a request of its own (a multi-page PDF, DJVU or TIFF is one file)",
			Type: "value_error.count"}}}
}

func missingImage() error {
	return &apierr.Error{Code: apierr.ImageMissing, Detail: []apierr.Detail{{
		Loc: []string{"body", "image"}, Msg: "field required", Type: "value_error.missing"}}}
}

func (s *Server) bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return s.tooLarge()
	}
	var se *stalledError
	if errors.As(err, &se) {
		return stalled(se)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return apierr.Wrap(apierr.NotMultipart, err, "The upload ended early: the body stops before its multipart closing boundary, the file is incomplete")
	}
	return apierr.Wrap(apierr.NotMultipart, err, "Malformed multipart body")
}

// paramNames names the parameters of a spec.
func paramNames(spec []params.Param) map[string]bool {
	names := make(map[string]bool, len(spec))
	for _, p := range spec {
		names[p.Name] = true
	}
	return names
}

// queryOnly names the query parameters of a method, refused as form
// fields (see readUpload); the sets are made once, in New.
func (s *Server) queryOnly(method string) map[string]bool {
	if method == methodRecognize {
		return s.recognizeParams
	}
	return s.classifyParams
}
