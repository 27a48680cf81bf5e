package crop

import (
	"fmt"
	"image"
	"image/color"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
)

// padGrey is the canvas value around a letterboxed page
// (train_cropnet_data.PAD).
const padGrey = 128

// letterboxed is a page shrunk into the model's square input.
type letterboxed struct {
	tensor []float32
	// w, h is the size of the page inside the size x size canvas (placed
	// at its top-left corner).
	w, h int
}

// letterbox shrinks the page so its longer side is the model's input size
// (area filter, as the training script's box filter) and writes the
// normalised tensor; the rest of the canvas is the mean grey, as in
// training. JPEG pages are shrunk plane by plane before the colour
// conversion, which then touches only the small image.
func (n *Neural) letterbox(img image.Image) (letterboxed, error) {
	b := img.Bounds()
	s := n.size
	f := float64(s) / float64(max(b.Dx(), b.Dy()))
	w, h := max(1, min(s, int(float64(b.Dx())*f+0.5))), max(1, min(s, int(float64(b.Dy())*f+0.5)))
	interp := gocv.InterpolationArea
	if f > 1 {
		interp = gocv.InterpolationLinear
	}
	rgb, err := shrinkRGB(img, w, h, interp)
	if err != nil {
		return letterboxed{}, err
	}
	in := n.sess.Spec().Input
	var lut [3][256]float32
	for c := range 3 {
		for v := range 256 {
			lut[c][v] = float32((float64(v)*in.Scale - in.Mean[c]) / in.Std[c])
		}
	}
	t := make([]float32, 3*s*s)
	for c := range 3 {
		pad := lut[c][padGrey]
		p := t[c*s*s : (c+1)*s*s]
		for i := range p {
			p[i] = pad
		}
	}
	for y := range h {
		row := rgb[3*w*y : 3*w*(y+1)]
		for x := range w {
			o := y*s + x
			t[o] = lut[0][row[3*x]]
			t[s*s+o] = lut[1][row[3*x+1]]
			t[2*s*s+o] = lut[2][row[3*x+2]]
		}
	}
	return letterboxed{tensor: t, w: w, h: h}, nil
}

// shrinkRGB resizes img to w x h and returns packed RGB bytes.
func shrinkRGB(img image.Image, w, h int, interp gocv.InterpolationFlags) ([]byte, error) {
	if yc, ok := img.(*image.YCbCr); ok {
		return shrinkYCbCr(yc, w, h, interp)
	}
	bgr, err := cvimg.BGR(img)
	if err != nil {
		return nil, fmt.Errorf("crop: convert page: %w", err)
	}
	defer bgr.Close()
	small := gocv.NewMat()
	defer small.Close()
	gocv.Resize(bgr, &small, image.Pt(w, h), 0, 0, interp)
	pix, err := small.DataPtrUint8()
	if err != nil {
		return nil, fmt.Errorf("crop: read shrunk page: %w", err)
	}
	out := make([]byte, 3*w*h)
	stride := small.Step()
	for y := range h {
		row := pix[y*stride : y*stride+3*w]
		for x := range w {
			out[3*(y*w+x)], out[3*(y*w+x)+1], out[3*(y*w+x)+2] = row[3*x+2], row[3*x+1], row[3*x]
		}
	}
	return out, nil
}

// shrinkYCbCr resizes the luma and both chroma planes to w x h each and
// converts only the result to RGB.
func shrinkYCbCr(im *image.YCbCr, w, h int, interp gocv.InterpolationFlags) ([]byte, error) {
	b := im.Bounds()
	cw, ch := b.Dx(), b.Dy()
	switch im.SubsampleRatio {
	case image.YCbCrSubsampleRatio420:
		cw, ch = (b.Max.X+1)/2-b.Min.X/2, (b.Max.Y+1)/2-b.Min.Y/2
	case image.YCbCrSubsampleRatio422:
		cw = (b.Max.X+1)/2 - b.Min.X/2
	case image.YCbCrSubsampleRatio440:
		ch = (b.Max.Y+1)/2 - b.Min.Y/2
	case image.YCbCrSubsampleRatio411:
		cw = (b.Max.X+3)/4 - b.Min.X/4
	case image.YCbCrSubsampleRatio410:
		cw, ch = (b.Max.X+3)/4-b.Min.X/4, (b.Max.Y+1)/2-b.Min.Y/2
	}
	off := im.COffset(b.Min.X, b.Min.Y)
	planes := []*image.Gray{
		{Pix: im.Y[im.YOffset(b.Min.X, b.Min.Y):], Stride: im.YStride, Rect: image.Rect(0, 0, b.Dx(), b.Dy())},
		{Pix: im.Cb[off:], Stride: im.CStride, Rect: image.Rect(0, 0, cw, ch)},
		{Pix: im.Cr[off:], Stride: im.CStride, Rect: image.Rect(0, 0, cw, ch)},
	}
	var small [3][]byte
	for i, p := range planes {
		m, err := cvimg.Gray(p)
		if err != nil {
			return nil, fmt.Errorf("crop: read page plane: %w", err)
		}
		r := gocv.NewMat()
		gocv.Resize(m, &r, image.Pt(w, h), 0, 0, interp)
		m.Close()
		pix, err := r.DataPtrUint8()
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("crop: read shrunk plane: %w", err)
		}
		small[i] = make([]byte, w*h)
		for y := range h {
			copy(small[i][y*w:(y+1)*w], pix[y*r.Step():y*r.Step()+w])
		}
		r.Close()
	}
	out := make([]byte, 3*w*h)
	for i := range w * h {
		out[3*i], out[3*i+1], out[3*i+2] = color.YCbCrToRGB(small[0][i], small[1][i], small[2][i])
	}
	return out, nil
}
