package decode

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// TestReadPNM: the header's numbers with the white space and comments
// PNM allows, pixels in place, and the files refused: truncated, 16-bit,
// over the pixel limit (before the image is allocated), not PNM.
func TestReadPNM(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		w, h    int
		rgba    []byte // first pixel
		wantErr string
	}{
		{name: "ppm", data: "P6\n2 1\n255\n\x01\x02\x03\x04\x05\x06", w: 2, h: 1, rgba: []byte{1, 2, 3, 255}},
		{name: "pgm with comments", data: "P5 # made by ddjvu\n3 # width\n1\n255\n\x07\x08\x09", w: 3, h: 1, rgba: []byte{7, 7, 7, 255}},
		{name: "comment right after a number", data: "P6\n1#c\n1\n255\n\x0a\x0b\x0c", w: 1, h: 1, rgba: []byte{10, 11, 12, 255}},
		{name: "truncated", data: "P6\n2 2\n255\n\x01\x02\x03", wantErr: "truncated"},
		{name: "16-bit", data: "P5\n1 1\n65535\n\x00\x01", wantErr: "16-bit"},
		{name: "over the limit", data: "P6\n100000 100000\n255\n", wantErr: "pixels"},
		{name: "a number of ten digits", data: "P6\n1000000000 1\n255\n", wantErr: "header"},
		{name: "not pnm", data: "P3\n1 1\n255\n1 2 3", wantErr: "not a binary"},
		{name: "no size", data: "P6\n", wantErr: "header"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img, err := readPNM(bufio.NewReader(strings.NewReader(tc.data)), Options{MaxPixels: 1 << 20}, 0)
			if tc.wantErr != "" {
				var le *LimitError
				if err == nil || (!strings.Contains(err.Error(), tc.wantErr) && !(tc.wantErr == "pixels" && errors.As(err, &le))) {
					t.Fatalf("got %v, want an error about %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b := img.Bounds(); b.Dx() != tc.w || b.Dy() != tc.h {
				t.Fatalf("size %v, want %dx%d", b.Size(), tc.w, tc.h)
			}
			r, g, b, a := img.At(0, 0).RGBA()
			if got := []byte{byte(r >> 8), byte(g >> 8), byte(b >> 8), byte(a >> 8)}; string(got) != string(tc.rgba) {
				t.Errorf("first pixel %v, want %v", got, tc.rgba)
			}
		})
	}
}

// TestStreamToolStopsOrDrains: a consumer that reads only the start of a
// tool's output neither hangs nor loses the run (the rest is read and
// dropped), one that fails stops the tool and its error comes back, and
// output over the cap is refused.
func TestStreamToolStopsOrDrains(t *testing.T) {
	if _, err := runTool(context.Background(), 1<<30, 1<<10, "true"); err != nil {
		t.Skipf("prlimit cannot run tools here: %v", err)
	}
	head := func(n int) func(io.Reader) error {
		return func(r io.Reader) error {
			_, err := io.ReadFull(r, make([]byte, n))
			return err
		}
	}
	boom := errors.New("bad header")
	zeros := []string{"head", "-c", "33554432", "/dev/zero"}
	dies := []string{"sh", "-c", "head -c 100 /dev/zero; echo page 2 is damaged >&2; exit 3"}
	tests := []struct {
		name    string
		tool    []string
		maxOut  int64
		consume func(io.Reader) error
		want    error  // errors.Is
		wantMsg string // or a message part
	}{
		{"reads the start", zeros, 64 << 20, head(10), nil, ""},
		{"fails at once", zeros, 64 << 20, func(io.Reader) error { return boom }, boom, ""},
		{"output over the cap", zeros, 1 << 20, head(10), nil, "output over"},
		// The consumer finds the output cut short; the tool's own error,
		// with its stderr, says why.
		{"the tool dies midway", dies, 64 << 20, head(1000), nil, "page 2 is damaged"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			err := streamTool(context.Background(), 1<<30, tc.maxOut, tc.consume, tc.tool[0], tc.tool[1:]...)
			switch {
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Errorf("got %v, want %v", err, tc.want)
			case tc.wantMsg != "" && (err == nil || !strings.Contains(err.Error(), tc.wantMsg)):
				t.Errorf("got %v, want %q", err, tc.wantMsg)
			case tc.want == nil && tc.wantMsg == "" && err != nil:
				t.Errorf("got %v", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}
