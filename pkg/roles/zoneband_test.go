package roles

import (
	"image"
	"testing"

	"docsuite/pkg/geom"
	"docsuite/pkg/ppocr"
)

// TestZoneBand checks where the zone is looked for: the band of wide rows
// at the bottom of the turned crop, narrow rows between them skipped, and
// nowhere when the wide rows lie high (the crop turned the wrong way).
func TestZoneBand(t *testing.T) {
	page := image.Rect(0, 0, 600, 420)
	box := func(x0, y0, x1, y1 int) ppocr.Box { return ppocr.Box{Rect: image.Rect(x0, y0, x1, y1)} }
	zone := []ppocr.Box{
		box(40, 40, 200, 60),   // a title
		box(30, 330, 560, 350), // zone line 1
		box(30, 355, 560, 375), // zone line 2
	}
	buttons := []ppocr.Box{
		box(30, 300, 560, 318), // zone line 1
		box(30, 322, 560, 340), // zone line 2
		box(30, 345, 120, 360), // a button: narrow
		box(30, 362, 560, 380), // a row of buttons
		box(30, 385, 350, 400), // the copyright line
	}
	cases := []struct {
		name  string
		boxes []ppocr.Box
		r     geom.Rotation
		ok    bool
		y0    int // the band starts above this row
		y1    int // and ends below this one
	}{
		{"zone at the bottom", zone, 0, true, 330, 375},
		{"upside down, the zone is at the top", zone, 2, false, 0, 0},
		{"narrow rows skipped", buttons, 0, true, 300, 400},
		{"title only", zone[:1], 0, false, 0, 0},
		{"nothing", nil, 0, false, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			band, ok := zoneBand(c.boxes, page, c.r)
			if ok != c.ok {
				t.Fatalf("ok %v, want %v (band %v)", ok, c.ok, band)
			}
			if ok && (band.Min.Y > c.y0 || band.Max.Y < c.y1 || band.Dx() != page.Dx()) {
				t.Errorf("band %v, want the full width from above %d to below %d", band, c.y0, c.y1)
			}
		})
	}
	// Turned half round, the same zone read upside down lies at the top of
	// the unturned crop: the band is found for code 2.
	flipped := []ppocr.Box{box(40, 45, 570, 65), box(40, 70, 570, 90), box(300, 360, 560, 380)}
	if band, ok := zoneBand(flipped, page, 2); !ok || band.Max.Y < 420-45 {
		t.Errorf("half turn: band %v ok %v, want the zone at the bottom of the turned crop", band, ok)
	}
}

// zoneBand is zoneBandOf on the crop turned by r, with boxes the lines
// detected on the unturned crop, whose bounds are b, turned along.
func zoneBand(boxes []ppocr.Box, b image.Rectangle, r geom.Rotation) (image.Rectangle, bool) {
	rects, tw, th := turnBoxes(boxes, b, r)
	return zoneBandOf(rects, image.Pt(int(tw), int(th)))
}
