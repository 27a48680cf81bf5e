package main

import (
	"image"
	"image/color"
	"sort"
)

// quantize maps img onto a 256-colour palette made of the most frequent
// 15-bit colours (no dithering), which keeps contact sheets small.
func quantize(img *image.RGBA) *image.Paletted {
	var hist [1 << 15]int
	key := func(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }
	for i := 0; i < len(img.Pix); i += 4 {
		hist[key(img.Pix[i], img.Pix[i+1], img.Pix[i+2])]++
	}
	idx := make([]int, 0, 4096)
	for k, n := range hist {
		if n > 0 {
			idx = append(idx, k)
		}
	}
	sort.Slice(idx, func(a, b int) bool { return hist[idx[a]] > hist[idx[b]] })
	if len(idx) > 256 {
		idx = idx[:256]
	}
	pal := make(color.Palette, len(idx))
	for i, k := range idx {
		pal[i] = color.RGBA{uint8(k>>10&31)<<3 | 4, uint8(k>>5&31)<<3 | 4, uint8(k&31)<<3 | 4, 255}
	}
	var near [1 << 15]uint8
	var done [1 << 15]bool
	out := image.NewPaletted(img.Rect, pal)
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			i := img.PixOffset(x, y)
			k := key(img.Pix[i], img.Pix[i+1], img.Pix[i+2])
			if !done[k] {
				near[k] = uint8(pal.Index(color.RGBA{uint8(k>>10&31)<<3 | 4, uint8(k>>5&31)<<3 | 4, uint8(k&31)<<3 | 4, 255}))
				done[k] = true
			}
			out.Pix[out.PixOffset(x, y)] = near[k]
		}
	}
	return out
}
