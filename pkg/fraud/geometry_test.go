package fraud

import (
	"image"
	"image/color"
	"image/draw"
	"testing"

	"docsuite/pkg/geom"
)

// TestBackToPage turns a lying document with a marked box upright under
// every rotation code, finds the box in the upright image, and maps it
// back: a portrait found upright must be reported where it lies on the
// page.
func TestBackToPage(t *testing.T) {
	page := image.NewRGBA(image.Rect(0, 0, 400, 300))
	lying := image.Rect(50, 40, 250, 160) // the document's bounding box on the page
	mark := image.Rect(80, 60, 120, 90)
	draw.Draw(page, page.Rect, image.NewUniform(color.Black), image.Point{}, draw.Src)
	draw.Draw(page, mark, image.NewUniform(color.White), image.Point{}, draw.Src)
	sub := page.SubImage(lying)
	for r := geom.Rotation(0); r < geom.NumRotations; r++ {
		up, err := upright(sub, r)
		if err != nil {
			t.Fatal(err)
		}
		found := image.Rectangle{}
		b := up.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				if c, _, _, _ := up.At(x, y).RGBA(); c > 0x8000 {
					found = found.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
		if got := backToPage(found, b, sub.Bounds(), r); got != mark {
			t.Errorf("rotation %d: box %v upright maps back to %v, want %v", r, found, got, mark)
		}
	}
}
