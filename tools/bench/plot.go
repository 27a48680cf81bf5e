package main

import (
	"image"
	"image/color"
	"image/png"
	"os"
)

// writePlot draws p50 and p95 latency against concurrency as a PNG line
// chart: two polylines over a light grid, no text (the report's table
// carries the numbers).
func writePlot(path string, runs []runResult) error {
	const w, h, pad = 640, 360, 40
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	fill(img, img.Bounds(), color.RGBA{255, 255, 255, 255})
	maxLat := 0.0
	for _, r := range runs {
		maxLat = max(maxLat, r.P95.Seconds())
	}
	if maxLat == 0 || len(runs) == 0 {
		return savePNG(path, img)
	}
	grid := color.RGBA{225, 225, 225, 255}
	for i := 0; i <= 4; i++ {
		y := pad + (h-2*pad)*i/4
		line(img, pad, y, w-pad, y, grid)
	}
	line(img, pad, h-pad, w-pad, h-pad, color.RGBA{0, 0, 0, 255})
	line(img, pad, pad, pad, h-pad, color.RGBA{0, 0, 0, 255})
	pt := func(i int, v float64) (int, int) {
		x := pad
		if len(runs) > 1 {
			x = pad + (w-2*pad)*i/(len(runs)-1)
		}
		return x, h - pad - int(float64(h-2*pad)*v/maxLat)
	}
	for _, series := range []struct {
		val func(runResult) float64
		c   color.RGBA
	}{
		{func(r runResult) float64 { return r.P50.Seconds() }, color.RGBA{31, 119, 180, 255}},
		{func(r runResult) float64 { return r.P95.Seconds() }, color.RGBA{214, 39, 40, 255}},
	} {
		for i := range runs {
			x, y := pt(i, series.val(runs[i]))
			fill(img, image.Rect(x-3, y-3, x+4, y+4), series.c)
			if i > 0 {
				px, py := pt(i-1, series.val(runs[i-1]))
				line(img, px, py, x, y, series.c)
			}
		}
	}
	return savePNG(path, img)
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

func line(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		fill(img, image.Rect(x0, y0, x0+2, y0+2), c)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}

func savePNG(path string, img image.Image) error {
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
