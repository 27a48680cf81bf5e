package rawimg

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"io"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	rgba := image.NewRGBA(image.Rect(0, 0, 7, 3))
	rgba.Set(2, 1, color.RGBA{10, 20, 30, 255})
	g := image.NewGray(image.Rect(0, 0, 5, 4))
	g.SetGray(4, 3, color.Gray{200})
	sub := rgba.SubImage(image.Rect(1, 1, 4, 3)) // stride differs from width
	nrgba := image.NewNRGBA(image.Rect(0, 0, 2, 2))
	nrgba.Set(1, 1, color.NRGBA{1, 2, 3, 255})
	tests := []struct {
		name string
		img  image.Image
		x, y int
	}{
		{"rgba", rgba, 2, 1}, {"gray", g, 4, 3}, {"sub-image", sub, 1, 0}, {"converted", nrgba, 1, 1},
	}
	for _, tc := range tests {
		out, err := Decode(Encode(tc.img))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b := tc.img.Bounds()
		if out.Bounds().Dx() != b.Dx() || out.Bounds().Dy() != b.Dy() {
			t.Errorf("%s: size %v", tc.name, out.Bounds())
		}
		r1, g1, b1, _ := tc.img.At(b.Min.X+tc.x, b.Min.Y+tc.y).RGBA()
		r2, g2, b2, _ := out.At(tc.x, tc.y).RGBA()
		if r1 != r2 || g1 != g2 || b1 != b2 {
			t.Errorf("%s: pixel differs", tc.name)
		}
	}
}

func TestRejectsGarbage(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("RIMG"), append([]byte("RIMG\x05\x00\x00\x00\x05\x00\x00\x00\x04\x00\x00\x00"), 1, 2, 3)} {
		if _, err := Decode(data); !errors.Is(err, ErrFormat) {
			t.Errorf("%q: %v", data, err)
		}
	}
}

// TestReaderReadsInPlace: the reader gives Encode's bytes whether read in
// small pieces, at offsets across the header's end, or after a seek, and
// reads a contiguous image's pixels in place (no copy of a large crop).
func TestReaderReadsInPlace(t *testing.T) {
	rgba := image.NewRGBA(image.Rect(0, 0, 9, 5))
	for i := range rgba.Pix {
		rgba.Pix[i] = byte(i * 7)
	}
	sub := rgba.SubImage(image.Rect(2, 1, 7, 4))
	for _, tc := range []struct {
		name    string
		img     image.Image
		inPlace bool
	}{{"rgba", rgba, true}, {"sub-image", sub, false}} {
		t.Run(tc.name, func(t *testing.T) {
			want := Encode(tc.img)
			r := NewReader(tc.img)
			if r.Size() != int64(len(want)) {
				t.Fatalf("size %d, want %d", r.Size(), len(want))
			}
			if got := &r.pix[0] == &rgba.Pix[0]; got != tc.inPlace {
				t.Errorf("pixels read in place: %v, want %v", got, tc.inPlace)
			}
			var got []byte
			buf := make([]byte, 5) // pieces that straddle the header's end
			for {
				n, err := r.Read(buf)
				got = append(got, buf[:n]...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("read %d bytes unlike Encode's %d", len(got), len(want))
			}
			for _, off := range []int64{0, 3, headerLen - 1, headerLen, int64(len(want)) - 2} {
				p := make([]byte, 4)
				n, err := r.ReadAt(p, off)
				end := min(off+4, int64(len(want)))
				if !bytes.Equal(p[:n], want[off:end]) || (end-off < 4) != (err == io.EOF) {
					t.Errorf("ReadAt %d: %v %v, want %v", off, p[:n], err, want[off:end])
				}
			}
			if _, err := r.Seek(headerLen+2, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			rest, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(rest, want[headerLen+2:]) {
				t.Errorf("after a seek: %d bytes, %v", len(rest), err)
			}
		})
	}
}
