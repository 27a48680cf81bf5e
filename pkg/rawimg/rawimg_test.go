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
// reads the pixels in place, a sub-image's rows too (no copy of a large
// crop).
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
	}{{"rgba", rgba, true}, {"sub-image", sub, true}} {
		t.Run(tc.name, func(t *testing.T) {
			want := Encode(tc.img)
			r := NewReader(tc.img)
			if r.Size() != int64(len(want)) {
				t.Fatalf("size %d, want %d", r.Size(), len(want))
			}
			at := tc.img.Bounds().Min
			if got := &r.planes[0].pix[0] == &rgba.Pix[rgba.PixOffset(at.X, at.Y)]; got != tc.inPlace {
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

// filledYCbCr is a w x h YCbCr image at ratio r whose samples all differ
// from their neighbours, so a misplaced plane or row shows.
func filledYCbCr(w, h int, r image.YCbCrSubsampleRatio) *image.YCbCr {
	m := image.NewYCbCr(image.Rect(0, 0, w, h), r)
	for i := range m.Y {
		m.Y[i] = byte(i*3 + 1)
	}
	for i := range m.Cb {
		m.Cb[i], m.Cr[i] = byte(i*5+2), byte(i*11+7)
	}
	return m
}

// TestYCbCrKeepsItsPlanes: a decoded JPEG is stored as its three planes at
// every subsample ratio and odd size, padded to whole blocks or not (1.5
// bytes a pixel at 4:2:0 where RGBA takes 4), read without a copy, and
// decodes to the same colours; a sub-image away from the origin, whose
// samples may straddle its edge, is stored as RGBA instead.
func TestYCbCrKeepsItsPlanes(t *testing.T) {
	ratios := []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422,
		image.YCbCrSubsampleRatio420, image.YCbCrSubsampleRatio440, image.YCbCrSubsampleRatio411, image.YCbCrSubsampleRatio410}
	for _, r := range ratios {
		for i, size := range []image.Point{{8, 6}, {7, 5}, {1, 1}, {13, 2}, {7, 5}, {1, 1}} {
			m := filledYCbCr(size.X, size.Y, r)
			if i >= 4 {
				// As image/jpeg decodes: planes padded to whole blocks,
				// the picture their top-left part.
				m = filledYCbCr(size.X+9, size.Y+5, r).SubImage(image.Rect(0, 0, size.X, size.Y)).(*image.YCbCr)
			}
			rd := NewReader(m)
			if &rd.planes[0].pix[0] != &m.Y[0] {
				t.Errorf("%v %v: luma copied", r, size)
			}
			cw, chh := chromaSize(r, size.X, size.Y)
			if want := int64(headerLen + size.X*size.Y + 2*cw*chh); rd.Size() != want {
				t.Errorf("%v %v: %d bytes, want %d", r, size, rd.Size(), want)
			}
			out, err := Decode(Encode(m))
			if err != nil {
				t.Fatalf("%v %v: %v", r, size, err)
			}
			y, ok := out.(*image.YCbCr)
			if !ok {
				t.Fatalf("%v %v: decoded as %T", r, size, out)
			}
			if y.SubsampleRatio != r || y.Bounds() != m.Bounds() {
				t.Errorf("%v %v: decoded %v %v", r, size, y.SubsampleRatio, y.Bounds())
			}
			for py := 0; py < size.Y; py++ {
				for px := 0; px < size.X; px++ {
					if y.YCbCrAt(px, py) != m.YCbCrAt(px, py) {
						t.Fatalf("%v %v: (%d,%d) is %v, want %v", r, size, px, py, y.YCbCrAt(px, py), m.YCbCrAt(px, py))
					}
				}
			}
		}
	}
	m := filledYCbCr(9, 9, image.YCbCrSubsampleRatio420)
	sub := m.SubImage(image.Rect(1, 1, 6, 8))
	out, err := Decode(Encode(sub))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.(*image.RGBA); !ok {
		t.Fatalf("sub-image decoded as %T, want RGBA", out)
	}
	// The 8-bit conversion may differ from YCbCr's 16-bit one by a step.
	want := color.RGBAModel.Convert(sub.At(3, 4)).(color.RGBA)
	got := out.(*image.RGBA).RGBAAt(2, 3)
	for i, d := range []int{int(want.R) - int(got.R), int(want.G) - int(got.G), int(want.B) - int(got.B)} {
		if d < -1 || d > 1 {
			t.Errorf("sub-image channel %d: %v, want %v", i, got, want)
		}
	}
}

// TestRejectsBadYCbCr: a YCbCr header with a ratio image does not know,
// or planes of the wrong length, is no raw image.
func TestRejectsBadYCbCr(t *testing.T) {
	good := Encode(filledYCbCr(4, 4, image.YCbCrSubsampleRatio420))
	badRatio := bytes.Clone(good)
	badRatio[13] = 9
	for name, data := range map[string][]byte{"ratio": badRatio, "short": good[:len(good)-1], "long": append(bytes.Clone(good), 0)} {
		if _, err := Decode(data); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
