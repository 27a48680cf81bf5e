package gateway

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"

	"docsuite/pkg/apierr"
	"docsuite/pkg/config"
)

// TestSizeLimitsNameTheLimitInForce checks that the 413 and 415 answers
// name the limits the installation set, not the defaults: an admin who
// raised MAX_FILE_BYTES to 64 MB must not tell clients to stay under 30.
func TestSizeLimitsNameTheLimitInForce(t *testing.T) {
	gin.SetMode(gin.ReleaseMode)
	const mb, kb = 1 << 20, 1 << 10
	tests := []struct {
		name     string
		min, max int64
		size     int
		wantCode apierr.Code
		wantMsg  string
	}{
		{"default upper limit", 1 * kb, 30 * mb, 30*mb + 1, apierr.FileTooLarge, "File is too large: it must be smaller than 30 MB"},
		{"default lower limit", 1 * kb, 30 * mb, 1*kb - 1, apierr.FileTooSmall, "File is too small: it must be larger than 1 KB"},
		{"lowered upper limit", 1 * kb, 2 * mb, 2*mb + 1, apierr.FileTooLarge, "File is too large: it must be smaller than 2 MB"},
		{"raised lower limit", 4 * kb, 30 * mb, 4*kb - 1, apierr.FileTooSmall, "File is too small: it must be larger than 4 KB"},
		{"a limit in bytes", 1500, 30 * mb, 1499, apierr.FileTooSmall, "File is too small: it must be larger than 1500 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Server{cfg: config.Gateway{MinFileBytes: tc.min, MaxFileBytes: tc.max}, uploadMem: newMemBudget(1 << 30)}
			data := bytes.Repeat([]byte{0xAB}, tc.size)
			copy(data, []byte{0xFF, 0xD8, 0xFF, 0xE0})
			body, ct := imageBody(t, data)
			c, _ := gin.CreateTestContext(httptest.NewRecorder())
			c.Request = httptest.NewRequest(http.MethodPost, "/pipelines/run/classify", body)
			c.Request.Header.Set("Content-Type", ct)
			_, err := s.readUpload(c, nil)
			var e *apierr.Error
			if !errors.As(err, &e) || e.Code != tc.wantCode {
				t.Fatalf("error %v, want %s", err, tc.wantCode)
			}
			if got := e.Envelope().Message; got != tc.wantMsg {
				t.Errorf("message %q, want %q", got, tc.wantMsg)
			}
			if left := s.uploadMem.left; left != 1<<30 {
				t.Errorf("a refused upload keeps %d bytes of the budget reserved", 1<<30-left)
			}
		})
	}
}
