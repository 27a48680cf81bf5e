package extract

import (
	"image"
	"sort"
)

// Cover trimming. A passport is often photographed or scanned inside its
// open cover, and the cropper then cuts along the cover: a dark margin of
// a few millimetres around the pages. Without a zone to place the form
// by, the form is laid over the whole crop (layout.fromCrop), and a
// margin of 5 mm moves every field off its region. pageBounds finds the
// pages inside such a margin.

const (
	// coverMaxShare is the widest margin trimmed on one side, as a share
	// of the crop's side: a cover shows a few millimetres around pages of
	// 88 to 125 mm.
	coverMaxShare = 0.12
	// coverDark is the most a cover row's median luma may be, absolutely and
	// as a share of the page's median, to count as cover.
	coverDark      = 110
	coverDarkShare = 0.55
	// coverSamples is about how many pixels of a row or column are looked
	// at.
	coverSamples = 160
)

// pageBounds returns the part of img inside a dark cover margin, or
// img's bounds when its edges are not cover: each side is trimmed by the
// run of rows (columns) from that edge whose median luma is both dark and
// far darker than the middle of the page.
func pageBounds(img image.Image) image.Rectangle {
	b := img.Bounds()
	if b.Dx() < 40 || b.Dy() < 40 {
		return b
	}
	page := medianLuma(img, image.Rect(b.Min.X+b.Dx()/4, b.Min.Y+b.Dy()/4, b.Max.X-b.Dx()/4, b.Max.Y-b.Dy()/4))
	limit := min(float64(coverDark), coverDarkShare*page)
	row := func(y int) float64 { return lineLuma(img, image.Rect(b.Min.X, y, b.Max.X, y+1)) }
	col := func(x int) float64 { return lineLuma(img, image.Rect(x, b.Min.Y, x+1, b.Max.Y)) }
	run := func(n int, at func(int) float64, from, step int) int {
		// A crop's edge may hold a pixel or two of the table beyond the
		// cover.
		skip := 0
		for skip <= n/100 && at(from+step*skip) >= limit {
			skip++
		}
		if skip > n/100 {
			return 0
		}
		k, most := skip, int(coverMaxShare*float64(n))
		for k < most && at(from+step*k) < limit {
			k++
		}
		if k == most {
			return 0 // dark far into the crop: not a cover's margin
		}
		return k
	}
	out := image.Rect(
		b.Min.X+run(b.Dx(), col, b.Min.X, 1), b.Min.Y+run(b.Dy(), row, b.Min.Y, 1),
		b.Max.X-run(b.Dx(), col, b.Max.X-1, -1), b.Max.Y-run(b.Dy(), row, b.Max.Y-1, -1),
	)
	return out
}

// lineLuma is the median luma (0..255) of about coverSamples pixels
// spread over r: the cover's rounded corners, where the table shows,
// and the text on a page do not move it.
func lineLuma(img image.Image, r image.Rectangle) float64 {
	var v []float64
	eachSample(r, func(x, y int) { v = append(v, luma(img, x, y)) })
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// medianLuma is the median luma of a grid of samples over r.
func medianLuma(img image.Image, r image.Rectangle) float64 {
	var v []float64
	stepX, stepY := max(1, r.Dx()/24), max(1, r.Dy()/24)
	for y := r.Min.Y; y < r.Max.Y; y += stepY {
		for x := r.Min.X; x < r.Max.X; x += stepX {
			v = append(v, luma(img, x, y))
		}
	}
	if len(v) == 0 {
		return 0
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// eachSample calls f at about coverSamples points evenly spread along
// the longer side of r (r is one pixel thick).
func eachSample(r image.Rectangle, f func(x, y int)) {
	if r.Dx() >= r.Dy() {
		step := max(1, r.Dx()/coverSamples)
		for x := r.Min.X; x < r.Max.X; x += step {
			f(x, r.Min.Y)
		}
		return
	}
	step := max(1, r.Dy()/coverSamples)
	for y := r.Min.Y; y < r.Max.Y; y += step {
		f(r.Min.X, y)
	}
}

// luma is the Rec. 601 luma of one pixel, 0..255.
func luma(img image.Image, x, y int) float64 {
	r, g, b, _ := img.At(x, y).RGBA()
	return (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(b)) / 257
}
