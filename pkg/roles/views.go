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
// detected on the turned crop again: unturned, the text ran down the
// page, where the detector finds lines less surely and cuts them worse
// (a sideways photo's two zone lines came out as pieces too short to be a
// zone's row).
func (v *turnedViews) at(ctx context.Context, r geom.Rotation) (*turnedView, error) {
	if tv, ok := v.seen[r]; ok {
		return tv, nil
	}
	up, err := cvimg.Turn(v.img, r)
	if err != nil {
		return nil, err
	}
	tv := &turnedView{up: up}
	if r.Turns()%2 == 0 {
		tv.lines, _, _ = turnBoxes(v.boxes, v.img.Bounds(), r)
	} else if tv.lines, err = orient.DetectRects(ctx, v.z.eng, up); err != nil {
		return nil, err
	}
	v.seen[r] = tv
	return tv, nil
}
