package testutil

import (
	"bytes"
	"image"
	"image/draw"
	"image/jpeg"
	"testing"
)

// CopyRegionJPEG returns img as a JPEG of quality 92 with the pixels of src
// copied to the point to: the copy-move forgery the forgery tests make of
// real and synthetic scans.
func CopyRegionJPEG(t testing.TB, img image.Image, src image.Rectangle, to image.Point) []byte {
	t.Helper()
	b := img.Bounds()
	out := image.NewRGBA(b)
	draw.Draw(out, b, img, b.Min, draw.Src)
	draw.Draw(out, image.Rectangle{Min: to, Max: to.Add(src.Size())}, img, src.Min, draw.Src)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
