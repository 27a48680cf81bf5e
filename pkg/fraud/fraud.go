// Package fraud checks documents for signs of forgery and turns them into
// a verdict. Each sign is found by its own package from the pixels or the
// bytes alone:
//
//   - editor_metadata: traces of an image or PDF editor in the file's
//     metadata (package fakecheck, the same check as check_fake);
//   - copy_move: a region of the document pasted elsewhere on it
//     (package fraud/copymove, keypoint self-matching verified pixel by
//     pixel);
//   - photo_box: a portrait whose noise level differs strongly from the
//     rest of the document (package fraud/photobox).
//
// Splicing (a piece of another image pasted in) is not checked on its own:
// a JPEG block-grid detector was tried and dropped because it marked
// untouched real photos (see docs/accuracy-fraud.md).
//
// Every sign carries a confidence, calibrated on the synthetic tampering
// set (tools/tamper): a logistic function of the detector's statistic,
// fitted so that it estimates the chance that a sign of that strength marks
// a real tampering. A document's score is the chance that at least one of
// its sign types is right, each type counting with its most confident sign
// (1 - prod over types of (1 - confidence)), and the verdict is suspicious
// from a score of 0.5.
package fraud

import (
	"context"
	"fmt"
	"image"
	"image/draw"
	"math"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/fakecheck"
	"docsuite/pkg/fraud/copymove"
	"docsuite/pkg/fraud/photobox"
	"docsuite/pkg/geom"
)

// Sign types.
const (
	EditorMetadata = "editor_metadata"
	CopyMove       = "copy_move"
	PhotoBox       = "photo_box"
)

// Verdicts.
const (
	Clean      = "clean"
	Suspicious = "suspicious"
)

// Threshold is the score from which a document is suspicious.
const Threshold = 0.5

// Sign is one forgery sign on a document.
type Sign struct {
	Type string `json:"type"`
	// Confidence is the calibrated chance that the sign marks a real
	// tampering, in [0, 1].
	Confidence float64 `json:"confidence"`
	// Coords are the corners TL, TR, BL, BR of the region the sign is
	// about, in page pixels (the whole document for editor metadata).
	Coords [][2]int `json:"coords"`
	// Message says what was found, for a person.
	Message string `json:"message"`
	// Strength is the detector's raw statistic (kept for calibration;
	// not part of the API).
	Strength float64 `json:"-"`
}

// Result is the forgery check of one document.
type Result struct {
	Verdict string  `json:"verdict"`
	Score   float64 `json:"score"`
	Signs   []Sign  `json:"signs"`
}

// Judge combines signs into a result. Signs of one type are not
// independent (one recompressed region gives several), so each type counts
// with its most confident sign; different types are independent checks and
// combine as the chance that at least one of them is right.
func Judge(signs []Sign) Result {
	best := map[string]float64{}
	for _, s := range signs {
		best[s.Type] = max(best[s.Type], s.Confidence)
	}
	keep := 1.0
	for _, c := range best {
		keep *= 1 - c
	}
	score := math.Round((1-keep)*10000) / 10000
	v := Clean
	if score >= Threshold {
		v = Suspicious
	}
	if signs == nil {
		signs = []Sign{}
	}
	return Result{Verdict: v, Score: score, Signs: signs}
}

// Analyzer runs the pixel checks of one document. It is safe for
// concurrent use.
type Analyzer struct {
	faces *photobox.Detector
	cal   Calibration
	// MinConfidence is the smallest confidence of a reported pixel sign
	// (New sets 0.05; the calibration tool sets 0 to see every candidate).
	MinConfidence float64
}

// New prepares an analyzer; cascade is the Haar face cascade file (empty:
// Debian's opencv-data location).
func New(cascade string) (*Analyzer, error) {
	faces, err := photobox.New(cascade)
	if err != nil {
		return nil, err
	}
	cal, err := DefaultCalibration()
	if err != nil {
		return nil, err
	}
	return &Analyzer{faces: faces, cal: cal, MinConfidence: 0.05}, nil
}

// Metadata turns check_fake's result into an editor_metadata sign over the
// document's coords; a file without an editor's trace gives none.
func (a *Analyzer) Metadata(res fakecheck.Result, coords [][2]int) []Sign {
	if !res.Fake {
		return nil
	}
	msg := "the file was saved by an editor"
	for _, r := range res.Reasons {
		if r.Editor != "" {
			msg = fmt.Sprintf("the file was saved by %s (%s %s: %q)", r.Editor, r.Source, r.Field, r.Value)
			break
		}
	}
	if len(res.Reasons) > 0 && msg == "the file was saved by an editor" {
		r := res.Reasons[0]
		msg = fmt.Sprintf("the file was edited after it was made (%s %s: %q)", r.Source, r.Field, r.Value)
	}
	return []Sign{{Type: EditorMetadata, Confidence: a.cal.Confidence(EditorMetadata, 1), Coords: coords, Message: msg, Strength: 1}}
}

// Source describes where a page came from, as far as the checks care.
type Source struct {
	// SharedShapes is true for formats whose encoder stores one bitmap
	// for every repeat of a shape (DjVu's JB2 text layer): identical
	// repeats are normal there, so copy-move is not checked.
	SharedShapes bool
}

// Document runs the pixel checks on the document at quad (TL, TR, BL, BR
// of the upright document, page pixels) of a decoded page; rot is the
// rotation code that makes the document as it lies upright. Signs whose
// confidence is below a.MinConfidence are dropped.
func (a *Analyzer) Document(ctx context.Context, page image.Image, quad geom.Quad, rot geom.Rotation, src Source) ([]Sign, error) {
	sub := region(page, quad)
	if sub.Bounds().Dx() < 32 || sub.Bounds().Dy() < 32 {
		return nil, nil
	}
	var signs []Sign
	var cms []copymove.Region
	var err error
	if !src.SharedShapes {
		if cms, err = copymove.Detect(ctx, sub, copymove.Options{}); err != nil {
			return nil, err
		}
	}
	for _, r := range cms {
		signs = append(signs, Sign{Type: CopyMove, Confidence: a.cal.Confidence(CopyMove, r.Strength), Coords: corners(r.A),
			Strength: r.Strength,
			Message: fmt.Sprintf("the region %s repeats the region %s pixel for pixel (%d keypoint matches, %.0f%% of its texture equal)",
				rectString(r.A), rectString(r.B), r.Matches, r.Similar*100)})
	}
	up, err := upright(sub, rot)
	if err != nil {
		return nil, err
	}
	ps, err := a.faces.Check(ctx, up)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		box := backToPage(p.Box, up.Bounds(), sub.Bounds(), rot)
		signs = append(signs, Sign{Type: PhotoBox, Confidence: a.cal.Confidence(PhotoBox, p.Strength), Coords: corners(box),
			Strength: p.Strength,
			Message:  fmt.Sprintf("the portrait at %s has noise %.2f against %.2f on the rest of the document", rectString(box), p.Noise, p.Page)})
	}
	out := signs[:0]
	for _, s := range signs {
		if s.Confidence >= a.MinConfidence {
			out = append(out, s)
		}
	}
	return out, nil
}

// region returns the part of page inside the quad's bounding box, keeping
// page coordinates (the JPEG grid analysis needs them).
func region(page image.Image, q geom.Quad) image.Image {
	r := image.Rectangle{Min: image.Pt(math.MaxInt32, math.MaxInt32), Max: image.Pt(math.MinInt32, math.MinInt32)}
	for _, p := range q {
		r.Min.X, r.Min.Y = min(r.Min.X, int(math.Floor(p.X))), min(r.Min.Y, int(math.Floor(p.Y)))
		r.Max.X, r.Max.Y = max(r.Max.X, int(math.Ceil(p.X))), max(r.Max.Y, int(math.Ceil(p.Y)))
	}
	r = r.Intersect(page.Bounds())
	if s, ok := page.(interface {
		SubImage(image.Rectangle) image.Image
	}); ok {
		return s.SubImage(r)
	}
	out := image.NewRGBA(r)
	draw.Draw(out, r, page, r.Min, draw.Src)
	return out
}

// upright turns the document region upright for face detection.
func upright(sub image.Image, rot geom.Rotation) (image.Image, error) {
	if rot == 0 {
		return sub, nil
	}
	b := sub.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(rgba, rgba.Bounds(), sub, b.Min, draw.Src)
	out, err := cvimg.Turn(rgba, rot)
	if err != nil {
		return nil, fmt.Errorf("fraud: turn upright: %w", err)
	}
	return out, nil
}

// backToPage maps a box of the upright image back to page pixels.
func backToPage(box, up, sub image.Rectangle, rot geom.Rotation) image.Rectangle {
	if rot == 0 {
		return box
	}
	box = box.Sub(up.Min)
	inv := rot.Inverse()
	out := image.Rectangle{Min: image.Pt(math.MaxInt32, math.MaxInt32), Max: image.Pt(math.MinInt32, math.MinInt32)}
	for _, c := range []image.Point{box.Min, {box.Max.X, box.Min.Y}, {box.Min.X, box.Max.Y}, box.Max} {
		p, _, _ := inv.MapPoint(geom.Point{X: float64(c.X), Y: float64(c.Y)}, float64(up.Dx()), float64(up.Dy()))
		out.Min.X, out.Min.Y = min(out.Min.X, int(p.X)), min(out.Min.Y, int(p.Y))
		out.Max.X, out.Max.Y = max(out.Max.X, int(p.X)), max(out.Max.Y, int(p.Y))
	}
	return out.Add(sub.Min)
}

// corners are a box's TL, TR, BL, BR as API coords.
func corners(r image.Rectangle) [][2]int {
	return [][2]int{{r.Min.X, r.Min.Y}, {r.Max.X, r.Min.Y}, {r.Min.X, r.Max.Y}, {r.Max.X, r.Max.Y}}
}

func rectString(r image.Rectangle) string {
	return fmt.Sprintf("x %d..%d, y %d..%d", r.Min.X, r.Max.X, r.Min.Y, r.Max.Y)
}
