package extract

import (
	"context"
	"fmt"
	"image"
	"strings"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/ppocr"
)

// digitFields are the visual fields printed in digits alone (with dots,
// a hyphen or a space). PP-OCR's recogniser, trained on Latin script and
// digits, reads them first: it reads blurred photos' digits where
// Tesseract reads nothing, and the factory's 0 that Tesseract takes for
// a 9 in some faces.
var digitFields = map[string]bool{
	"date_of_birth": true, "date_of_issue": true, "subdivision_code": true, "series_and_number": true,
}

// digitTrust scales PP-OCR's character probabilities to the visual
// fields' confidence: its digits on a blurred photo are surer than they
// are right (a 0 read as 8 at 0.9).
const digitTrust = 0.8

// isDigitChar is the character set of the digit fields' recognition.
func isDigitChar(r rune) bool { return r >= '0' && r <= '9' || r == '.' || r == '-' }

// readDigits reads digit field f in region r of img with PP-OCR: each
// line the detector finds in the region is read with digits, dots and
// hyphens alone, and the surest reading that passes the field's format
// wins. A field printed along the edge is turned both ways first. ok is
// false when no reading passes. The confidence is the recogniser's mean
// character probability times digitTrust.
func (x *Extractor) readDigits(ctx context.Context, img image.Image, r image.Rectangle, f string, vertical bool) (read, bool, error) {
	e := x.mrz.Engine()
	v := passportVisual[f]
	turns := []geom.Rotation{0}
	if vertical {
		turns = []geom.Rotation{1, 3}
	}
	best := read{}
	region := cvimg.Sub(img, r)
	for _, turn := range turns {
		sub := region
		if turn != 0 {
			t, err := cvimg.Turn(region, turn)
			if err != nil {
				return read{}, false, fmt.Errorf("extract: turn field: %w", err)
			}
			sub = t
		}
		lines, err := e.ReadAll(ctx, ppocr.NewImage(sub), ppocr.DetectOptions{MaxSide: 640, Upscale: true}, x.digits)
		if err != nil {
			return read{}, false, fmt.Errorf("extract: read digits: %w", err)
		}
		for _, l := range lines {
			text := l.Text
			if f == "series_and_number" {
				text = spaced(text)
			}
			txt := v.format(text)
			if c := digitTrust * l.Confidence; txt != "" && c > best.conf {
				best = read{text: txt, conf: c, rect: r, pp: true}
			}
		}
	}
	return best, best.text != "", nil
}

// spaced returns s with its non-digits as spaces, for the number's
// pattern (two, two and six digits).
func spaced(s string) string {
	return strings.Map(func(r rune) rune {
		if r < '0' || r > '9' {
			return ' '
		}
		return r
	}, s)
}
