package ocr

import (
	"context"
	"fmt"
	"image"
	"strings"

	"github.com/otiai10/gosseract/v2"
)

// FieldOptions say how to read one field region.
type FieldOptions struct {
	// Whitelist limits recognition to these characters (empty: all).
	Whitelist string
	// Block reads the region as a block of lines; otherwise as one line.
	Block bool
	// NoInvert skips Tesseract's second reading of a line it read with
	// little confidence, with the image's shades inverted
	// (tessedit_do_invert): documents print dark on light, and that
	// second reading of a photograph's junk lines (patterns, shadows,
	// fingers) was a sixth of Tesseract's time on the classifier's
	// printed words. The engine's default reads both ways.
	NoInvert bool
}

// ReadField recognises the text of a small region (one field of a
// document) with the options' character set and layout, and returns its
// lines (coordinates relative to img's bounds) and their text joined by
// spaces. Each read sets its own layout mode; the whitelist is cleared
// afterwards.
func (e *Engine) ReadField(ctx context.Context, img image.Image, opt FieldOptions) (string, []Line, error) {
	w, err := e.acquire(ctx)
	if err != nil {
		return "", nil, err
	}
	c := w.c
	defer func() {
		_ = c.SetWhitelist("")
		e.idle <- w
	}()
	mode := gosseract.PSM_SINGLE_LINE
	if opt.Block {
		mode = gosseract.PSM_SINGLE_BLOCK
	}
	if err := c.SetPageSegMode(mode); err != nil {
		return "", nil, fmt.Errorf("ocr: page segmentation mode: %w", err)
	}
	if err := c.SetWhitelist(opt.Whitelist); err != nil {
		return "", nil, fmt.Errorf("ocr: whitelist: %w", err)
	}
	invert := "1"
	if opt.NoInvert {
		invert = "0"
	}
	if err := c.SetVariable("tessedit_do_invert", invert); err != nil {
		return "", nil, fmt.Errorf("ocr: tessedit_do_invert: %w", err)
	}
	if err := c.SetImageFromBytes(pnm(img)); err != nil {
		return "", nil, fmt.Errorf("ocr: set image: %w", err)
	}
	boxes, err := c.GetBoundingBoxesVerbose()
	if err != nil {
		return "", nil, fmt.Errorf("ocr: recognise: %w", err)
	}
	lines := group(boxes)
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Text
	}
	return strings.Join(texts, " "), lines, nil
}
