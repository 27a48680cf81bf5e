package roles

import (
	"context"
	"image"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/orient"
	"docsuite/pkg/ppocr"
)

// turnedViews are a crop turned the ways the zone search and the printed
// words look at it, each with its text lines level, made once per
// rotation: the zone band is found on the view the orientation chose, and
// the words are read on the same view.
type turnedViews struct {
	z     *zoneReader
	img   image.Image
	boxes []ppocr.Box // the lines detected on img unturned
	seen  map[geom.Rotation]*turnedView
	// quarter is the first view turned a quarter, whose lines were
	// detected on it, and quarterRot its rotation.
	quarter    *turnedView
	quarterRot geom.Rotation
}

// turnedView is the crop turned by one rotation, with its text lines in
// its coordinates (origin at 0,0).
type turnedView struct {
	up    image.Image
	lines []image.Rectangle
}

// newTurnedViews returns the views of img, whose lines detected unturned
// are boxes.
func (z *zoneReader) newTurnedViews(img image.Image, boxes []ppocr.Box) *turnedViews {
	return &turnedViews{z: z, img: img, boxes: boxes, seen: map[geom.Rotation]*turnedView{}}
}

// at returns the crop turned by r with its lines: the lines detected on
// the unturned crop turned along, or, when r turns a quarter, lines
// detected again on a crop turned a quarter: unturned, the text ran down
// the page, where the detector finds lines less surely and cuts them worse
// (a sideways photo's two zone lines came out as pieces too short to be a
// zone's row). The quarter-turned crop's lines are detected once: another
// quarter turn is it turned half round or mirrored, which keeps its lines
// level, and its lines are turned along (on a crop with few lines each
// detection costs two runs of the detector, 0.3 to 0.5 s of one core).
func (v *turnedViews) at(ctx context.Context, r geom.Rotation) (*turnedView, error) {
	if tv, ok := v.seen[r]; ok {
		return tv, nil
	}
	up, err := cvimg.Turn(v.img, r)
	if err != nil {
		return nil, err
	}
	tv := &turnedView{up: up}
	switch {
	case r.Turns()%2 == 0:
		tv.lines, _, _ = turnBoxes(v.boxes, v.img.Bounds(), r)
	case v.quarter != nil:
		rel := relative(v.quarterRot, r)
		tv.lines = turnRects(v.quarter.lines, v.quarter.up.Bounds().Size(), rel)
	default:
		if tv.lines, err = orient.DetectRects(ctx, v.z.eng, up); err != nil {
			return nil, err
		}
		v.quarter, v.quarterRot = tv, r
	}
	v.seen[r] = tv
	return tv, nil
}

// image returns the crop turned by r: the view's, when at has made it, or
// turned afresh, without detecting its lines (a quarter-turned view that
// at has not made is not worth a detection to a caller that maps its own).
func (v *turnedViews) image(r geom.Rotation) (image.Image, error) {
	if tv, ok := v.seen[r]; ok {
		return tv.up, nil
	}
	return cvimg.Turn(v.img, r)
}

// lines is at as orient.TurnedLines: the crop turned by r and its lines.
func (v *turnedViews) lines(ctx context.Context, r geom.Rotation) (image.Image, []image.Rectangle, error) {
	tv, err := v.at(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	return tv.up, tv.lines, nil
}

// relative returns the rotation that turns an image turned by from into
// the image turned by to.
func relative(from, to geom.Rotation) geom.Rotation {
	// Probe with a point off every axis of symmetry on a non-square image.
	p, w, h := geom.Point{X: 1, Y: 2}, 7.0, 5.0
	want, _, _ := to.MapPoint(p, w, h)
	q, fw, fh := from.MapPoint(p, w, h)
	for r := geom.Rotation(0); r < geom.NumRotations; r++ {
		if got, _, _ := r.MapPoint(q, fw, fh); got == want {
			return r
		}
	}
	panic("geom: rotations do not compose") // the eight codes are a group
}

// turnRects maps rects, in an image of size size (origin at 0,0), into the
// image turned by r.
func turnRects(rects []image.Rectangle, size image.Point, r geom.Rotation) []image.Rectangle {
	w, h := float64(size.X), float64(size.Y)
	out := make([]image.Rectangle, 0, len(rects))
	for _, q := range rects {
		p0, _, _ := r.MapPoint(geom.Point{X: float64(q.Min.X), Y: float64(q.Min.Y)}, w, h)
		p1, _, _ := r.MapPoint(geom.Point{X: float64(q.Max.X), Y: float64(q.Max.Y)}, w, h)
		out = append(out, image.Rect(int(p0.X), int(p0.Y), int(p1.X), int(p1.Y)))
	}
	return out
}
