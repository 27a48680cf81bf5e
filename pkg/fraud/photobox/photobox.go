// Package photobox checks the portrait of an identity document: a face is
// found with OpenCV's frontal-face Haar cascade (Debian's opencv-data), and
// the noise level inside the photo box is compared with the rest of the
// document. A portrait printed on the document was photographed or scanned
// with it and carries the same sensor noise; a portrait pasted in from
// another picture carries that picture's noise, usually much less (a
// clean digital photo) or much more.
//
// Noise is estimated as Immerkær's fast noise variance estimate (the
// response to a 3x3 Laplacian-difference kernel, which cancels straight
// edges and gradients) over pixels whose gradient is low, so that print and
// the face's own contours do not count as noise.
package photobox

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"
	"os"
	"sync"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
)

// CascadePaths are where the frontal-face cascade is looked for.
var CascadePaths = []string{
	"/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml",
	"/usr/share/opencv/haarcascades/haarcascade_frontalface_default.xml",
}

// Detector finds portraits and compares their noise with the page. It is
// safe for concurrent use: each call takes a cascade from a pool.
type Detector struct {
	path string
	pool sync.Pool
}

// New finds the cascade file (path, or the first of CascadePaths when
// path is empty) and checks that it loads.
func New(path string) (*Detector, error) {
	if path == "" {
		for _, p := range CascadePaths {
			if _, err := os.Stat(p); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		return nil, errors.New("photobox: no Haar face cascade found (install opencv-data)")
	}
	d := &Detector{path: path}
	c, err := d.get()
	if err != nil {
		return nil, err
	}
	d.put(c)
	return d, nil
}

func (d *Detector) get() (*gocv.CascadeClassifier, error) {
	if c, ok := d.pool.Get().(*gocv.CascadeClassifier); ok {
		return c, nil
	}
	c := gocv.NewCascadeClassifier()
	if !c.Load(d.path) {
		_ = c.Close()
		return nil, fmt.Errorf("photobox: cannot load cascade %s", d.path)
	}
	return &c, nil
}

func (d *Detector) put(c *gocv.CascadeClassifier) { d.pool.Put(c) }

// Portrait is a photo box found on an upright document.
type Portrait struct {
	// Face is the detected face and Box the photo box around it, in the
	// pixels of the image given to Check.
	Face, Box image.Rectangle
	// Noise is the noise standard deviation inside the box and Page the
	// one on the rest of the document, in grey levels.
	Noise, Page float64
	// Strength is the detector's statistic: |ln(Noise / Page)|.
	Strength float64
}

// analysisSide bounds the longer side faces are searched at, noiseSide
// the one noise is measured at.
const (
	analysisSide = 800
	noiseSide    = 3000
)

// upscale maps a box of a shrunk image back by factor f.
func upscale(r image.Rectangle, f float64) image.Rectangle {
	return image.Rect(int(float64(r.Min.X)*f), int(float64(r.Min.Y)*f), int(float64(r.Max.X)*f+0.5), int(float64(r.Max.Y)*f+0.5))
}

// Check finds the portraits of an upright document image and measures
// them. A document without a detectable face gives none.
func (d *Detector) Check(ctx context.Context, img image.Image) ([]Portrait, error) {
	small, scale, err := cvimg.GrayScaled(img, analysisSide)
	if err != nil {
		return nil, fmt.Errorf("photobox: %w", err)
	}
	defer small.Close()
	short := min(small.Cols(), small.Rows())
	if short < 64 {
		return nil, nil
	}
	c, err := d.get()
	if err != nil {
		return nil, err
	}
	minFace := max(24, short/10)
	faces := c.DetectMultiScaleWithParams(small, 1.1, 6, 0, image.Pt(minFace, minFace), image.Pt(short*7/10, short*7/10))
	d.put(c)
	if len(faces) == 0 || ctx.Err() != nil {
		return nil, ctx.Err()
	}
	full, fscale, err := cvimg.GrayScaled(img, noiseSide)
	if err != nil {
		return nil, fmt.Errorf("photobox: %w", err)
	}
	defer full.Close()
	w, h := full.Cols(), full.Rows()
	pix := full.ToBytes()
	bounds := image.Rect(0, 0, w, h)
	var out []Portrait
	for _, f := range faces {
		s := scale / fscale // searched pixels to measured pixels
		face := image.Rect(int(float64(f.Min.X)*s), int(float64(f.Min.Y)*s),
			int(float64(f.Max.X)*s), int(float64(f.Max.Y)*s)).Intersect(bounds)
		fw, fh := face.Dx(), face.Dy()
		// a passport photo shows hair above and shoulders below the face
		box := image.Rect(face.Min.X-fw*3/10, face.Min.Y-fh*4/10, face.Max.X+fw*3/10, face.Max.Y+fh*6/10).Intersect(bounds)
		inner := face.Inset(fw / 8)
		in, nIn := noise(pix, w, inner, image.Rectangle{})
		page, nPage := noise(pix, w, bounds, box)
		if nIn < 200 || nPage < 2000 {
			continue
		}
		o := img.Bounds().Min
		out = append(out, Portrait{Face: upscale(face, fscale).Add(o), Box: upscale(box, fscale).Add(o), Noise: in, Page: page,
			Strength: math.Abs(math.Log((in + 0.25) / (page + 0.25)))})
	}
	return out, nil
}

// noise estimates the noise standard deviation over the low-gradient
// pixels of r outside skip, and returns how many pixels it used.
func noise(pix []byte, w int, r, skip image.Rectangle) (float64, int) {
	h := len(pix) / w
	r = r.Intersect(image.Rect(1, 1, w-1, h-1))
	var sum float64
	n := 0
	at := func(x, y int) int { return int(pix[y*w+x]) }
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if image.Pt(x, y).In(skip) {
				continue
			}
			gx := at(x+1, y) - at(x-1, y)
			gy := at(x, y+1) - at(x, y-1)
			if gx*gx+gy*gy > 20*20 {
				continue
			}
			c := at(x, y)
			if c < 8 || c > 247 { // clipped pixels carry no noise
				continue
			}
			v := 4*c - 2*(at(x-1, y)+at(x+1, y)+at(x, y-1)+at(x, y+1)) + at(x-1, y-1) + at(x+1, y-1) + at(x-1, y+1) + at(x+1, y+1)
			sum += math.Abs(float64(v))
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return math.Sqrt(math.Pi/2) * sum / (6 * float64(n)), n
}
