package decode

import (
	"fmt"
	"image"

	"github.com/strukturag/libheif/go/heif"
)

// heifSize reads the primary image's size without decoding it. libheif
// reports it after the file's rotation and mirroring (irot, imir), which
// decoding applies.
func heifSize(data []byte) (int, int, error) {
	ctx, err := heif.NewContext()
	if err != nil {
		return 0, 0, fmt.Errorf("libheif: %w", err)
	}
	if err := ctx.ReadFromMemory(data); err != nil {
		return 0, 0, fmt.Errorf("libheif: %w", err)
	}
	h, err := ctx.GetPrimaryImageHandle()
	if err != nil {
		return 0, 0, fmt.Errorf("libheif: %w", err)
	}
	return h.GetWidth(), h.GetHeight(), nil
}

// decodeHEIF decodes the primary image as RGBA. Greyscale images need the
// explicit RGB colourspace (libheif's "undefined" fails on them).
func decodeHEIF(data []byte) (image.Image, error) {
	ctx, err := heif.NewContext()
	if err != nil {
		return nil, fmt.Errorf("libheif: %w", err)
	}
	if err := ctx.ReadFromMemory(data); err != nil {
		return nil, fmt.Errorf("libheif: %w", err)
	}
	h, err := ctx.GetPrimaryImageHandle()
	if err != nil {
		return nil, fmt.Errorf("libheif: %w", err)
	}
	img, err := h.DecodeImage(heif.ColorspaceRGB, heif.ChromaInterleavedRGBA, nil)
	if err != nil {
		return nil, fmt.Errorf("libheif: %w", err)
	}
	out, err := img.GetImage()
	if err != nil {
		return nil, fmt.Errorf("libheif: %w", err)
	}
	// libheif's interleaved RGBA is straight alpha, which the binding
	// labels premultiplied; say what the bytes are so flatten lays any
	// transparent pixel on white correctly.
	if rgba, ok := out.(*image.RGBA); ok {
		out = &image.NRGBA{Pix: rgba.Pix, Stride: rgba.Stride, Rect: rgba.Rect}
	}
	return out, nil
}
