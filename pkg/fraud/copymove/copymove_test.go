package copymove

import (
	"bytes"
	"context"
	"image"
	"image/draw"
	"image/jpeg"
	"os"
	"testing"

	"docsuite/pkg/synth"
)

// realScan is a 300 dpi scan of a Russian passport spread, when the real
// data is present.
const realScan = "../../../../shared/realdata/SmartIDReader-Server-SDK/testdata__passport_rf_1.jpg"

// jpegRoundTrip saves img as a JPEG of quality q and decodes it.
func jpegRoundTrip(t *testing.T, img image.Image, q int) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: q}); err != nil {
		t.Fatal(err)
	}
	out, err := jpeg.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// pasted copies the part src of img to dst (same size) on a copy of it.
func pasted(img image.Image, src image.Rectangle, dst image.Point) *image.RGBA {
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	draw.Draw(out, image.Rectangle{Min: dst, Max: dst.Add(src.Size())}, img, src.Min, draw.Src)
	return out
}

// overlaps reports whether two boxes share at least half of the smaller.
func overlaps(a, b image.Rectangle) bool {
	in := a.Intersect(b)
	return 2*in.Dx()*in.Dy() >= min(a.Dx()*a.Dy(), b.Dx()*b.Dy())
}

// detectCase is an image and the copied pair it holds (empty: none).
type detectCase struct {
	name         string
	img          image.Image
	wantA, wantB image.Rectangle
}

func TestDetect(t *testing.T) {
	g, err := synth.New(synth.Config{Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := g.RenderType("passport_main", 11, 0)
	if err != nil {
		t.Fatal(err)
	}
	flat := jpegRoundTrip(t, doc.Img, 92)
	b := flat.Bounds()
	// two printed fields with their labels, moved onto the upper page; a
	// copy of one line of text is not reported (genuine documents repeat
	// words and numbers)
	src := image.Rect(b.Dx()*30/100, b.Dy()*64/100, b.Dx()*75/100, b.Dy()*74/100)
	dst := image.Pt(b.Dx()*40/100, b.Dy()*42/100)
	cases := []detectCase{
		{"untouched factory document", flat, image.Rectangle{}, image.Rectangle{}},
		{"block copied", pasted(flat, src, dst), src, image.Rectangle{Min: dst, Max: dst.Add(src.Size())}},
		{"block copied, saved again at quality 75", jpegRoundTrip(t, pasted(flat, src, dst), 75), src, image.Rectangle{Min: dst, Max: dst.Add(src.Size())}},
	}
	if data, err := os.ReadFile(realScan); err == nil {
		real, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		rb := real.Bounds()
		// the date of birth line moved onto the empty lower left corner
		rs := image.Rect(rb.Dx()*59/100, rb.Dy()*65/100, rb.Dx()*80/100, rb.Dy()*70/100)
		rd := image.Pt(rb.Dx()*10/100, rb.Dy()*82/100)
		cases = append(cases,
			detectCase{"untouched real scan", real, image.Rectangle{}, image.Rectangle{}},
			detectCase{"real scan with a copied line", jpegRoundTrip(t, pasted(real, rs, rd), 90), rs, image.Rectangle{Min: rd, Max: rd.Add(rs.Size())}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			regs, err := Detect(context.Background(), c.img, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c.wantA.Empty() {
				if len(regs) != 0 {
					t.Fatalf("copies reported on an untouched image: %+v", regs)
				}
				return
			}
			if len(regs) != 1 {
				t.Fatalf("want the one copied pair, got %+v", regs)
			}
			r := regs[0]
			ok := overlaps(r.A, c.wantA) && overlaps(r.B, c.wantB) || overlaps(r.A, c.wantB) && overlaps(r.B, c.wantA)
			if !ok {
				t.Fatalf("pair %v / %v, want %v / %v", r.A, r.B, c.wantA, c.wantB)
			}
			if r.Similar < 0.8 || r.Matches < 20 {
				t.Errorf("weak evidence for a pixel copy: %+v", r)
			}
		})
	}
}
