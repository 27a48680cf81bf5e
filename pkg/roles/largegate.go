package roles

import (
	"context"
	"image"

	"docsuite/pkg/store"
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

// enter returns at once for a crop of under largeCropPixels pixels, and
// otherwise when no other large crop is being worked on, or with ctx's
// error when ctx ends first. The caller must call the returned function
// when done with the crop.
func (g *largeGate) enter(ctx context.Context, pixels int) (func(), error) {
	if pixels < largeCropPixels {
		return func() {}, nil
	}
	select {
	case g.slot <- struct{}{}:
		return func() { <-g.slot }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// readGated reads the crop at key within g. A crop whose size the request
// gives (pixels above 0) waits for its turn before it is read, so a large
// crop waiting holds none of its pixels yet; one whose size is not given
// (a caller of an older release) is read first and then waits. The caller
// must call the returned function when done with the crop.
func readGated(ctx context.Context, g *largeGate, st store.Store, key string, pixels int) (image.Image, func(), error) {
	var img image.Image
	if pixels <= 0 {
		var err error
		if img, err = readCrop(ctx, st, key); err != nil {
			return nil, nil, err
		}
		b := img.Bounds()
		pixels = b.Dx() * b.Dy()
	}
	leave, err := g.enter(ctx, pixels)
	if err != nil {
		return nil, nil, err
	}
	if img == nil {
		if img, err = readCrop(ctx, st, key); err != nil {
			leave()
			return nil, nil, err
		}
	}
	return img, leave, nil
}
