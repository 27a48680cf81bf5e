package decode

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
	"testing"
)

// A GIF whose first frame does not start at (0, 0) of its logical screen
// is shown by a viewer on that screen. The page must be the screen, its
// grid starting at (0, 0) as every other page's: the pipeline clamps
// coords to the page's width and height, so a page of bounds
// (200,200)-(800,1267) had its documents' corners cut at x = 600,
// y = 1067 (found posting a 1000x1400 GIF whose frame lies at +200+200).
func TestGIFFrameOnItsScreen(t *testing.T) {
	pal := color.Palette{color.RGBA{A: 255}, color.RGBA{R: 255, A: 255}}
	frame := image.NewPaletted(image.Rect(20, 10, 60, 50), pal)
	for i := range frame.Pix {
		frame.Pix[i] = 1 // red
	}
	data := encoded(t, func(b *bytes.Buffer) error {
		return gif.EncodeAll(b, &gif.GIF{Image: []*image.Paletted{frame}, Delay: []int{0},
			Config: image.Config{ColorModel: pal, Width: 100, Height: 80}})
	})
	page := firstPage(t, data)
	if got, want := page.Bounds(), image.Rect(0, 0, 100, 80); got != want {
		t.Fatalf("page bounds %v, want the logical screen %v", got, want)
	}
	at := func(x, y int) [3]uint32 {
		r, g, b, _ := page.At(x, y).RGBA()
		return [3]uint32{r >> 8, g >> 8, b >> 8}
	}
	if c := at(30, 20); c != [3]uint32{255, 0, 0} {
		t.Errorf("pixel (30,20) inside the frame is %v, want red", c)
	}
	if c := at(5, 5); c != [3]uint32{255, 255, 255} {
		t.Errorf("pixel (5,5) outside the frame is %v, want white paper", c)
	}
}
