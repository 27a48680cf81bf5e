// Package fraud checks documents for signs of forgery and turns them into
// a verdict. Each sign is found by its own package from the pixels or the
// bytes alone:
//
//   - editor_metadata: traces of an image or PDF editor in the file's
//     metadata (package fakecheck, the same check as check_fake);
//   - copy_move: a region of the document pasted elsewhere on it
//     (package fraud/copymove, keypoint self-matching verified pixel by
//     pixel);
//   - splicing: a piece of another JPEG pasted in (a field or a portrait
//     cut from another picture), found by the JPEG block grid it brings
//     with it (package fraud/splice);
//   - photo_box: the portrait's photo box (found by a face detector,
//     package fraud/photobox, or where the type's form prints it) showing
//     a JPEG block grid other than the page's;
//   - mrz_mismatch: a visual field disagrees with a machine-readable zone
//     whose check digits hold (package fraud/zonecheck, when the analyzer
//     has a Zone checker).
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
	"docsuite/pkg/fraud/splice"
	"docsuite/pkg/fraud/zonecheck"
	"docsuite/pkg/geom"
)

// Sign types.
const (
	EditorMetadata = "editor_metadata"
	CopyMove       = "copy_move"
	PhotoBox       = "photo_box"
	Splicing       = "splicing"
	MRZMismatch    = "mrz_mismatch"
)

// SignTypes lists every sign type in a fixed order.
var SignTypes = []string{EditorMetadata, CopyMove, Splicing, PhotoBox, MRZMismatch}

// Verdicts.
const (
	Clean      = "clean"
	Suspicious = "suspicious"
)

// Threshold is the score from which a document is suspicious.
const Threshold = 0.5

// DefaultPhotoMinStrength is the smallest strength of a foreign JPEG grid
// in a photo box that counts: above every untouched document of the
// synthetic fitting set (docs/accuracy-fraud.md).
const DefaultPhotoMinStrength = 5.0

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
	faces  *photobox.Detector
	photos map[string][]formBox // where each type's form prints the portrait
	zoned  map[string]bool      // types whose form has a machine-readable zone
	cal    Calibration
	// Zone, when set, checks the machine-readable zone of documents whose
	// type's form has one against its check digits and the visual fields
	// (nil: not checked; it needs the text models and Tesseract).
	Zone *zonecheck.Checker
	// Splice tunes the block-grid detector (zero: its defaults).
	Splice splice.Options
	// PhotoMinStrength is the smallest strength of a foreign grid in a
	// photo box that gives a photo_box sign (New sets
	// DefaultPhotoMinStrength).
	PhotoMinStrength float64
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
	photos, zoned, err := forms()
	if err != nil {
		return nil, err
	}
	return &Analyzer{faces: faces, photos: photos, zoned: zoned, cal: cal, MinConfidence: 0.05, PhotoMinStrength: DefaultPhotoMinStrength}, nil
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
	// Type is the document's type when it is known (the classifier's
	// answer): where its form prints the portrait, the photo box is
	// checked even when no face is found there.
	Type string
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
	grid, err := splice.Measure(ctx, sub, a.Splice)
	if err != nil {
		return nil, fmt.Errorf("fraud: %w", err)
	}
	for _, r := range grid.Regions() {
		signs = append(signs, Sign{Type: Splicing, Confidence: a.cal.Confidence(Splicing, r.Strength), Coords: corners(r.Box),
			Strength: r.Strength,
			Message: fmt.Sprintf("the region %s carries a JPEG block grid of its own (offset %d, %d against the page's %d, %d; %d tiles, z %.1f): a piece of another picture",
				rectString(r.Box), r.Phase.X, r.Phase.Y, r.Page.X, r.Page.Y, r.Tiles, r.Strength)})
	}
	up, err := upright(sub, rot)
	if err != nil {
		return nil, err
	}
	ps, err := a.portraits(ctx, up, sub, quad, rot, src.Type)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		g := grid.Box(p.box)
		if g.Strength < a.PhotoMinStrength {
			continue
		}
		msg := fmt.Sprintf("the photo box at %s (%s) carries a JPEG block grid of its own (offset %d, %d against the page's %d, %d; z %.1f): the portrait was pasted in",
			rectString(p.box), p.how, g.Phase.X, g.Phase.Y, g.Page.X, g.Page.Y, g.Strength)
		if p.noise > 0 {
			msg += fmt.Sprintf("; its noise is %.2f against %.2f on the rest of the document", p.noise, p.page)
		}
		signs = append(signs, Sign{Type: PhotoBox, Confidence: a.cal.Confidence(PhotoBox, g.Strength), Coords: corners(p.box),
			Strength: g.Strength, Message: msg})
	}
	if a.Zone != nil && a.zoned[src.Type] {
		fs, err := a.Zone.Check(ctx, up, src.Type)
		if err != nil {
			return nil, fmt.Errorf("fraud: %w", err)
		}
		for _, f := range fs {
			box := backToPage(f.Box, up.Bounds(), sub.Bounds(), rot)
			signs = append(signs, Sign{Type: MRZMismatch, Confidence: a.cal.Confidence(MRZMismatch, f.Strength), Coords: corners(box),
				Strength: f.Strength, Message: f.Message()})
		}
	}
	out := signs[:0]
	for _, s := range signs {
		if s.Confidence >= a.MinConfidence {
			out = append(out, s)
		}
	}
	return out, nil
}

// portrait is a photo box to check, in page pixels.
type portrait struct {
	box         image.Rectangle
	how         string  // how it was found
	noise, page float64 // noise inside and outside, when measured
}

// portraits finds the photo boxes of the document sub (page pixels; up is
// it turned upright): the faces the cascade finds on the upright
// document, or else where the form of docType prints the portrait.
func (a *Analyzer) portraits(ctx context.Context, up, sub image.Image, quad geom.Quad, rot geom.Rotation, docType string) ([]portrait, error) {
	ps, err := a.faces.Check(ctx, up)
	if err != nil {
		return nil, err
	}
	var out []portrait
	for _, p := range ps {
		out = append(out, portrait{box: backToPage(p.Box, up.Bounds(), sub.Bounds(), rot), how: "a face", noise: p.Noise, page: p.Page})
	}
	if len(out) > 0 {
		return out, nil
	}
	f, ok := pick(a.photos[docType], up.Bounds().Dx(), up.Bounds().Dy())
	if !ok {
		return out, nil
	}
	var box image.Rectangle
	if rot == 0 {
		box = quad.FracBounds(f)
	} else {
		ub := up.Bounds()
		r := image.Rect(ub.Min.X+int(f[0]*float64(ub.Dx())), ub.Min.Y+int(f[1]*float64(ub.Dy())),
			ub.Min.X+int(f[2]*float64(ub.Dx())), ub.Min.Y+int(f[3]*float64(ub.Dy())))
		box = backToPage(r, ub, sub.Bounds(), rot)
	}
	if box = box.Intersect(sub.Bounds()); box.Empty() {
		return out, nil
	}
	return append(out, portrait{box: box, how: "where the " + docType + " form prints it"}), nil
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
