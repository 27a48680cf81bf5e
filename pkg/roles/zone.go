package roles

import (
	"context"
	"errors"
	"image"
	"log/slog"
	"slices"
	"sort"

	"docsuite/pkg/classify"
	"docsuite/pkg/config"
	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/mrz"
	"docsuite/pkg/ocr"
	"docsuite/pkg/onnxrt"
	"docsuite/pkg/orient"
	"docsuite/pkg/ppocr"
)

// zoneReader reads the machine-readable zone of a crop for the classifier:
// it turns the crop upright with the orientation models, then reads the
// zone with PP-OCR. The zone's issuer and document code are evidence the
// picture alone lacks (classify.ApplyZone).
type zoneReader struct {
	rt  *onnxrt.Runtime
	or  *orient.Orienter
	eng *ppocr.Engine
	rd  *mrz.Reader
	// tess reads the printed words (readWords); nil when Tesseract did
	// not load, and the words are then not read. words tells the words
	// some template prints (the orientation check of uprightWords).
	tess  *ocr.Engine
	words *classify.TypeWords
	// jpn reads the lines of a crop whose words are illegible with
	// Tesseract's Japanese model (withIdeographic); nil when that
	// model is not installed.
	jpn *ocr.Engine
	// spareSettled skips the printed words and the edge number when the
	// zone settles the type (classify.ZoneSettles): set for the
	// classifier worker, whose answer they could not change; tools that
	// fit the words' weights read them on every crop.
	spareSettled bool
	// digits is PP-OCR's alphabet cut to the digits (edgeNumber).
	digits ppocr.Charset
}

// errTextEvidenceOff is the zone reader's load error when TEXT_EVIDENCE is
// false.
var errTextEvidenceOff = errors.New("TEXT_EVIDENCE=false")

// runnerUpBelow is the orientation probability under which the zone is
// also looked for on the crop turned by the runner-up orientation. Above
// it, the runner-up's reading had never verified a zone (real files' 8
// ways: the highest that did was 0.950) and cost 15 % of the reader's
// time on factory crops, where the orientation is sure.
const runnerUpBelow = 0.99

// maxEvidenceSide is the longer side, in pixels, a crop is shrunk to
// before its evidence is read. Every reading scales text lines to a fixed
// height (the zone's rows to PP-OCR's 48 pixels, the printed words to 32)
// or detects lines at 1,440 pixels at most, so a larger crop only costs
// time and memory: a 62-megapixel scanned page (6,780 x 9,148) held
// 2 GB while its crop was converted and turned whole for each view. An
// A4 page at 4,096 pixels is a 350 dpi scan, its body text over 40 pixels
// high.
const maxEvidenceSide = 4096

// minZoneSide is the shorter side, in pixels, below which a crop is not
// searched for a zone: its characters would be under 4 pixels tall.
const minZoneSide = 120

// openZoneReader loads the models the zone reader needs. With logitsOnly
// its orientation loads no docnet of its own: every read must then come
// with docnet's orientation logits (ReadLogits), as the classify stage's
// do from the classifier's run. words is the printed words' table the
// classifier of the same process holds (nil loads one). engines is how
// many crops are read at once (the classifier worker's concurrency): each
// holds a Tesseract engine while it reads its printed words, so fewer
// engines than crops make the readings wait for one another.
func openZoneReader(m config.Models, log *slog.Logger, logitsOnly bool, words *classify.TypeWords, engines int) (*zoneReader, error) {
	rt, err := onnxrt.Open(onnxrt.Options{Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: log})
	if err != nil {
		return nil, err
	}
	z := &zoneReader{rt: rt}
	if z.eng, err = ppocr.Open(rt, ""); err != nil {
		_ = z.Close()
		return nil, err
	}
	// The type needs the zone's code, issuer and check digits, not the
	// names: the name line is read at its own width (docs/models.md).
	z.rd = mrz.NewReader(z.eng).WithZoneAtBottom().WithoutNames()
	z.digits = z.eng.Charset(func(r rune) bool { return r >= '0' && r <= '9' })
	if z.words = words; z.words == nil {
		if z.words, err = classify.LoadTypeWords(); err != nil {
			_ = z.Close()
			return nil, err
		}
	}
	if !m.PrintedWords {
		log.Info("printed-word evidence off: PRINTED_WORDS=false")
	} else if z.tess, err = ocr.New(max(engines, 1)); err != nil {
		log.Warn("printed-word evidence off: Tesseract did not load", "err", err)
		z.tess = nil
	} else if !ocr.HasLanguage(japaneseLang) {
		log.Info("Japanese words off: Tesseract's Japanese model is not installed (tesseract-ocr-jpn)")
	} else if z.jpn, err = ocr.New(max(engines, 1), japaneseLang); err != nil {
		log.Warn("Japanese words off", "err", err)
		z.jpn = nil
	}
	if z.or, err = orient.Open(orient.Options{Dir: m.Dir, Library: m.ONNXRuntime, Threads: m.Threads, AllowGPU: m.AllowGPU, Log: log,
		Text: z.eng, LogitsOnly: logitsOnly}); err != nil {
		_ = z.Close()
		return nil, err
	}
	return z, nil
}

// Close releases the models.
func (z *zoneReader) Close() error {
	var errs []error
	if z.or != nil {
		errs = append(errs, z.or.Close())
	}
	if z.eng != nil {
		errs = append(errs, z.eng.Close())
	}
	if z.tess != nil {
		z.tess.Close()
	}
	if z.jpn != nil {
		z.jpn.Close()
	}
	return errors.Join(append(errs, z.rt.Close())...)
}

// Read returns the evidence read on the crop (its text lines and its zone,
// when it has one that could be read) and the orientation found on the way,
// with its probability. The crop's text lines are detected once, at the
// orientation reading's size: they give the line count, the orientation,
// and where a zone can lie. The zone is looked for on the crop turned by
// the most probable orientation, then, when that is not sure
// (runnerUpBelow), by the runner-up and by the most probable one mirrored
// (geom.Rotation.Flipped), and only in a band of wide lines in the lower
// half of the turned crop: a zone whose check digits verify on one of
// those settles the orientation too. A crop whose
// long lines slant (cropSlant: a card held off level, not cut out) is
// turned level first and its lines detected again.
func (z *zoneReader) Read(ctx context.Context, img image.Image) (classify.Evidence, geom.Rotation, float64, error) {
	return z.ReadLogits(ctx, img, nil, readHints{Zone: true})
}

// readHints are what the picture tells the zone reader before it reads.
type readHints struct {
	// Zone false leaves the crop unsearched for a zone: the picture rules
	// out every type a zone could name (classify.Classifier.ZoneMayCount).
	Zone bool
	// PictureOrients makes docnet's orientation the crop's, its text
	// lines unread for it and the words not used to check it: the picture
	// names a page printed without text (classify.Classifier.Textless).
	PictureOrients bool
}

// ReadLogits is Read with docnet's orientation logits on img given (see
// classify.Classifier.Outputs); nil runs docnet here, which a reader
// opened logitsOnly cannot; h says what the picture tells (readHints).
func (z *zoneReader) ReadLogits(ctx context.Context, img image.Image, logits []float32, h readHints) (classify.Evidence, geom.Rotation, float64, error) {
	var ev classify.Evidence
	img, err := cvimg.Shrink(img, maxEvidenceSide)
	if err != nil {
		return ev, 0, 0, err
	}
	boxes, err := orient.DetectLines(ctx, z.eng, img)
	if err != nil {
		return ev, 0, 0, err
	}
	if a, ok := cropSlant(boxes); ok {
		img = cvimg.Level(img, a)
		if boxes, err = orient.DetectLines(ctx, z.eng, img); err != nil {
			return ev, 0, 0, err
		}
	}
	ev.TextLines = len(boxes)
	if logits == nil {
		if logits, err = z.or.Logits(ctx, img); err != nil {
			return ev, 0, 0, err
		}
	}
	// The orienter and the zone and words below look at the crop turned
	// the same ways: its lines are detected once a way.
	views := z.newTurnedViews(img, boxes)
	var p []float64
	if h.PictureOrients {
		p, err = z.or.PictureProbabilities(logits)
	} else {
		p, err = z.or.ProbabilitiesShared(ctx, img, boxes, logits, views.lines)
	}
	if err != nil {
		return ev, 0, 0, err
	}
	order := make([]geom.Rotation, len(p))
	for i := range order {
		order[i] = geom.Rotation(i)
	}
	sort.SliceStable(order, func(a, b int) bool { return p[order[a]] > p[order[b]] })
	rot, conf := order[0], p[order[0]]
	b := img.Bounds()
	if min(b.Dx(), b.Dy()) < minZoneSide {
		return ev, rot, conf, nil
	}
	tries := order[:2]
	switch {
	case !h.Zone:
		tries = nil
	case conf >= runnerUpBelow:
		tries = order[:1]
	case !slices.Contains(tries, rot.Flipped()):
		// A zone's fillers and symmetric capitals read nearly as well
		// mirrored: on a mirrored photograph the text lines can rank the
		// unmirrored view first and another second, the right one third.
		tries = []geom.Rotation{order[0], order[1], rot.Flipped()}
	}
	for try, r := range tries {
		v, err := views.at(ctx, r)
		if err != nil {
			return ev, 0, 0, err
		}
		band, ok := zoneBandOf(v.lines, v.up.Bounds().Size())
		if !ok {
			continue
		}
		up := v.up
		rd, err := z.rd.Read(ctx, cvimg.Sub(up, band.Add(up.Bounds().Min)))
		if errors.Is(err, mrz.ErrNotFound) {
			continue
		}
		if err != nil {
			return ev, 0, 0, err
		}
		if try > 0 && !rd.Valid() {
			continue // only a verified zone overrules the orientation
		}
		ev.Zone = &classify.Zone{DocumentCode: rd.DocumentCode, Issuer: rd.Issuer, Nationality: rd.Nationality,
			Valid: rd.Valid(), Confidence: rd.Confidence}
		if try > 0 {
			rot, conf = r, max(conf, rd.Confidence)
		}
		break
	}
	// A zone that settles the type leaves the words and the edge number
	// nothing to change: the classifier worker spares reading them.
	spare := z.spareSettled && classify.ZoneSettles(ev.Zone)
	if z.tess != nil && !spare {
		// A verified zone, docnet decisive, or a page printed without
		// text (the picture's orientation) settles the orientation:
		// the words are read, not used to check it.
		settled := ev.Zone != nil && ev.Zone.Valid || orient.Decisive(logits) || h.PictureOrients
		words, r, err := z.uprightWords(ctx, views, rot, settled)
		if err != nil {
			return ev, 0, 0, err
		}
		if words, err = z.withIdeographic(ctx, views, r, len(boxes), words); err != nil {
			return ev, 0, 0, err
		}
		ev.Words, ev.WordConfidence, ev.WordsRead = words.words, words.conf, true
		if r != rot {
			// The printed words read right turned another way: the text
			// lines and docnet were wrong (a Cyrillic document PP-OCR
			// cannot read); the call is an uncertain one.
			rot, conf = r, 0.5
		}
	}
	if !spare {
		if ev.EdgeNumber, err = z.edgeNumber(ctx, views, rot); err != nil {
			return ev, 0, 0, err
		}
	}
	return ev, rot, conf, nil
}

// zoneBandOf returns the band of a turned crop where a zone can lie (in
// its coordinates, origin at 0,0; size is its size): the lowest wide text
// row in the lower part of the crop and the wide rows stacked above it
// (zoneMaxRows in all), with a margin; ok is false when no row is wide
// enough. rects are the crop's text lines in its coordinates.
func zoneBandOf(rects []image.Rectangle, size image.Point) (image.Rectangle, bool) {
	tw, th := float64(size.X), float64(size.Y)
	rows := mergeRows(append([]image.Rectangle(nil), rects...))
	var zone []image.Rectangle
	for i := len(rows) - 1; i >= 0 && len(zone) < zoneMaxRows; i-- {
		row := rows[i]
		if row.Dx() < zoneRowAspect*row.Dy() || float64(row.Dx()) < zoneRowWidth*tw {
			continue // narrow rows (captions, buttons) neither start nor end the band
		}
		if len(zone) == 0 {
			if float64(row.Min.Y+row.Max.Y)/2 >= zoneTop*th {
				zone = append(zone, row)
			}
			continue
		}
		if last := zone[len(zone)-1]; last.Min.Y-row.Max.Y > 3*max(row.Dy(), last.Dy()) {
			break
		}
		zone = append(zone, row)
	}
	if len(zone) == 0 {
		return image.Rectangle{}, false
	}
	top, bottom := zone[len(zone)-1], zone[0]
	margin := 2 * max(top.Dy(), bottom.Dy())
	band := image.Rect(0, top.Min.Y-margin, int(tw), bottom.Max.Y+margin)
	return band.Intersect(image.Rect(0, 0, int(tw), int(th))), true
}

// turnBoxes maps the rectangles of boxes, detected on a crop whose bounds
// are b, into the crop turned by r (origin at 0,0), and returns the turned
// crop's size.
func turnBoxes(boxes []ppocr.Box, b image.Rectangle, r geom.Rotation) ([]image.Rectangle, float64, float64) {
	rects := make([]image.Rectangle, len(boxes))
	for i, bx := range boxes {
		rects[i] = bx.Rect.Sub(b.Min)
	}
	_, tw, th := r.MapPoint(geom.Point{}, float64(b.Dx()), float64(b.Dy()))
	return turnRects(rects, b.Size(), r), tw, th
}

// The shape of a zone's row in the detected lines: at least zoneRowAspect
// of its heights long and zoneRowWidth of the crop's width, its centre
// below zoneTop of the crop's height.
const (
	zoneRowAspect = 8
	zoneRowWidth  = 0.4
	zoneTop       = 0.4
	// zoneMaxRows is how many stacked wide rows the band holds: a zone
	// has up to three lines, and a line of print may run below it.
	zoneMaxRows = 5
)

// mergeRows joins the rectangles that share a text row (their vertical
// centres within half a line's height of each other) into one rectangle
// per row, sorted top to bottom.
func mergeRows(rects []image.Rectangle) []image.Rectangle {
	sort.Slice(rects, func(i, j int) bool { return rects[i].Min.Y+rects[i].Max.Y < rects[j].Min.Y+rects[j].Max.Y })
	var rows []image.Rectangle
	for _, r := range rects {
		if n := len(rows); n > 0 {
			last := rows[n-1]
			c1, c2 := last.Min.Y+last.Max.Y, r.Min.Y+r.Max.Y
			if abs(c2-c1) <= min(last.Dy(), r.Dy()) {
				rows[n-1] = last.Union(r)
				continue
			}
		}
		rows = append(rows, r)
	}
	return rows
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
