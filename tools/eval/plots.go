package main

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"docsuite/pkg/doctypes"
)

func label(img draw.Image, x, y int, s string) {
	d := &font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func save(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// plotConfusion draws truth rows against predicted columns for the classes
// seen, shaded by the row-normalised count.
func (r *results) plotConfusion(path string) error {
	idx := map[string]int{}
	var names []string
	for _, p := range r.Pairs {
		for _, n := range []string{p.Truth, p.Pred} {
			if _, ok := idx[n]; !ok && doctypes.Known(n) {
				idx[n] = len(names)
				names = append(names, n)
			}
		}
	}
	k := len(names)
	if k == 0 {
		return save(path, image.NewRGBA(image.Rect(0, 0, 1, 1)))
	}
	cell, left, top := 12, 300, 20
	img := image.NewRGBA(image.Rect(0, 0, left+k*cell+20, top+k*cell+20))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	counts := make([][]int, k)
	rows := make([]int, k)
	for i := range counts {
		counts[i] = make([]int, k)
	}
	for _, p := range r.Pairs {
		ti, ok1 := idx[p.Truth]
		pi, ok2 := idx[p.Pred]
		if ok1 && ok2 {
			counts[ti][pi]++
			rows[ti]++
		}
	}
	for i := 0; i < k; i++ {
		label(img, 4, top+i*cell+10, names[i])
		for j := 0; j < k; j++ {
			v := 0.0
			if rows[i] > 0 {
				v = float64(counts[i][j]) / float64(rows[i])
			}
			c := color.RGBA{uint8(255 - 200*v), uint8(255 - 200*v), 255, 255}
			if i != j && counts[i][j] > 0 {
				c = color.RGBA{255, uint8(230 - 180*v), uint8(230 - 180*v), 255}
			}
			draw.Draw(img, image.Rect(left+j*cell, top+i*cell, left+(j+1)*cell-1, top+(i+1)*cell-1), image.NewUniform(c), image.Point{}, draw.Src)
		}
	}
	label(img, left, 14, "predicted ->  (rows: truth, same order; blue diagonal = correct, red = confusions)")
	return save(path, img)
}

// plotReliability draws accuracy per confidence bin against the diagonal.
func (r *results) plotReliability(path string, bins int) error {
	const w, h, pad = 420, 420, 40
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	n := make([]int, bins)
	acc := make([]int, bins)
	for _, p := range r.Pairs {
		if !doctypes.Known(p.Truth) {
			continue
		}
		i := min(int(p.Conf*float64(bins)), bins-1)
		n[i]++
		if p.Pred == p.Truth {
			acc[i]++
		}
	}
	bw := (w - 2*pad) / bins
	for i := 0; i < bins; i++ {
		if n[i] == 0 {
			continue
		}
		a := float64(acc[i]) / float64(n[i])
		top := h - pad - int(a*float64(h-2*pad))
		draw.Draw(img, image.Rect(pad+i*bw+1, top, pad+(i+1)*bw-1, h-pad), image.NewUniform(color.RGBA{31, 119, 180, 255}), image.Point{}, draw.Src)
	}
	for t := 0; t <= w-2*pad; t++ { // the perfect-calibration diagonal
		img.Set(pad+t, h-pad-t*(h-2*pad)/(w-2*pad), color.RGBA{214, 39, 40, 255})
	}
	label(img, pad, 20, "accuracy per confidence bin (red: perfect calibration)")
	label(img, pad, h-12, "confidence 0 .. 1")
	return save(path, img)
}
