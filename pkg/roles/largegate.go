package roles

import (
	"context"
	"image"
)

// largeCropPixels is the size from which a crop counts as large for a
// worker's largeGate: 16 megapixels, the size from which the cropper keeps
// a JPEG page as its YCbCr planes (cropsvc). Such a crop costs a
// classifier some 400 MB of images while its text is read (the crop, its
// copy shrunk to 4,096 pixels and that copy's turned views); two read at
// once, with ONNX Runtime's and Tesseract's own memory beside them, took a
// classifier over the 2 GB its container is granted.
const largeCropPixels = 16_000_000

// largeGate lets a worker work on one large crop at a time; crops under
// largeCropPixels pass at once, beside it and each other. It is safe for
// concurrent use.
type largeGate struct {
	slot chan struct{}
}

// newLargeGate returns a gate with its one slot free.
func newLargeGate() *largeGate {
	return &largeGate{slot: make(chan struct{}, 1)}
}

// enter returns at once for a crop under largeCropPixels, and otherwise
// when no other large crop is being worked on, or with ctx's error when
// ctx ends first. The caller must call the returned function when done
// with img.
func (g *largeGate) enter(ctx context.Context, img image.Image) (func(), error) {
	b := img.Bounds()
	if b.Dx()*b.Dy() < largeCropPixels {
		return func() {}, nil
	}
	select {
	case g.slot <- struct{}{}:
		return func() { <-g.slot }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
