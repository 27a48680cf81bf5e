package synth

import (
	"image"
	"math"
	"testing"
)

// TestPrintVariationShiftsValuesTogether checks Effects.Print: off, every
// instance of the Russian passport prints its surname where the template
// says; on, the instances stray (the surname box moves between them) by
// no more than a printer's feed offset, and the values of one instance
// move together, so that a layout stays a layout.
func TestPrintVariationShiftsValuesTogether(t *testing.T) {
	for _, tc := range []struct {
		name  string
		print float64
	}{{"off", 0}, {"on", 1}} {
		t.Run(tc.name, func(t *testing.T) {
			g := newTestGenerator(t, Config{Seed: 3, Size: 640, Effects: Effects{Print: tc.print}})
			tpl, _ := g.rd.cat.Get("passport_main")
			var base [4]float64
			for _, e := range tpl.Elements {
				if e.Field == "surname" {
					base = e.Box
				}
			}
			W, H := tpl.SizeMM[0], tpl.SizeMM[1]
			moved, full := 0, 0
			for i := 0; i < 12; i++ {
				d, err := g.RenderType("passport_main", 9, i)
				if err != nil {
					t.Fatal(err)
				}
				if d.Img.Rect.Dx() > d.Img.Rect.Dy() { // half spread: boxes are of the half
					continue
				}
				full++
				s, n := d.Boxes["surname"], d.Boxes["other_names"]
				dx, dy := s[0]*W-base[0], s[1]*H-base[1]
				if tc.print == 0 && (math.Abs(dx) > 1e-6 || math.Abs(dy) > 1e-6) {
					t.Fatalf("instance %d: surname moved by (%.2f, %.2f) mm with print variation off", i, dx, dy)
				}
				if math.Abs(dx) > 1.6 || math.Abs(dy) > 1 {
					t.Fatalf("instance %d: surname moved by (%.2f, %.2f) mm, more than a feed offset", i, dx, dy)
				}
				if math.Abs(dx) > 0.05 || math.Abs(dy) > 0.05 {
					moved++
				}
				// the patronymic moves with the surname, within each value's own wobble
				var nb [4]float64
				for _, e := range tpl.Elements {
					if e.Field == "other_names" {
						nb = e.Box
					}
				}
				if ndx := n[0]*W - nb[0]; math.Abs(ndx-dx) > 0.61 {
					t.Fatalf("instance %d: surname moved %.2f mm across, patronymic %.2f mm", i, dx, ndx)
				}
			}
			if full < 5 {
				t.Fatalf("only %d of 12 instances were full spreads", full)
			}
			if tc.print > 0 && moved < 4 {
				t.Fatalf("only %d instances strayed from the template with print variation on", moved)
			}
		})
	}
}

// TestCoverPadKeepsFieldsOnTheirText checks a passport put in its open
// cover: every field box still frames the same pixels, and the margin
// around the pages is a dark cover, not paper.
func TestCoverPadKeepsFieldsOnTheirText(t *testing.T) {
	g := newTestGenerator(t, Config{Seed: 3, Size: 640})
	for i := 0; i < 4; i++ {
		d, err := g.RenderType("passport_main", 5, i)
		if err != nil {
			t.Fatal(err)
		}
		c := coverPad(d, NewRand(uint64(i)))
		W0, H0 := float64(d.Img.Rect.Dx()), float64(d.Img.Rect.Dy())
		W1, H1 := float64(c.Img.Rect.Dx()), float64(c.Img.Rect.Dy())
		if W1 <= W0 || H1 <= H0 {
			t.Fatalf("cover %vx%v is not larger than the pages %vx%v", W1, H1, W0, H0)
		}
		for k, b := range d.Boxes {
			nb := c.Boxes[k]
			for _, f := range [][2]float64{{0.5, 0.5}, {0.2, 0.3}, {0.8, 0.7}} {
				x0, y0 := int((b[0]+(b[2]-b[0])*f[0])*W0), int((b[1]+(b[3]-b[1])*f[1])*H0)
				x1, y1 := int((nb[0]+(nb[2]-nb[0])*f[0])*W1), int((nb[1]+(nb[3]-nb[1])*f[1])*H1)
				if !sameNear(d.Img, x0, y0, c.Img, x1, y1) {
					t.Fatalf("instance %d: field %s: pixel (%d,%d) of the pages is not at (%d,%d) in the cover", i, k, x0, y0, x1, y1)
				}
			}
		}
		mid := c.Img.RGBAAt(c.Img.Rect.Dx()/2, 1)
		if l := (int(mid.R) + int(mid.G) + int(mid.B)) / 3; l > 110 {
			t.Fatalf("instance %d: cover margin luminance %d, want a dark cover", i, l)
		}
	}
}

// sameNear reports whether pixel (x0, y0) of a equals a pixel of b within
// one pixel of (x1, y1): box fractions round either way.
func sameNear(a *image.RGBA, x0, y0 int, b *image.RGBA, x1, y1 int) bool {
	want := a.RGBAAt(x0, y0)
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if b.RGBAAt(x1+dx, y1+dy) == want {
				return true
			}
		}
	}
	return false
}
