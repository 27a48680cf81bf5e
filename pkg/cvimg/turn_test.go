package cvimg

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"testing"

	"docsuite/pkg/geom"
)

// TestTurnTurnsAndMirrors checks the eight codes against a marked
// image: code r moves the top-left marker where mirror-then-turn puts it.
func TestTurnTurnsAndMirrors(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 60, 40))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	for y := 0; y < 8; y++ {
		for x := 0; x < 8; x++ {
			img.SetRGBA(x, y, color.RGBA{255, 0, 0, 255})
		}
	}
	// Marker corner after the code: 0 TL, 1 TR, 2 BR, 3 BL; mirrored: 4 TR, 5 BR, 6 BL, 7 TL.
	corner := map[geom.Rotation][2]bool{0: {false, false}, 1: {true, false}, 2: {true, true}, 3: {false, true},
		4: {true, false}, 5: {true, true}, 6: {false, true}, 7: {false, false}}
	for r := geom.Rotation(0); r < geom.NumRotations; r++ {
		out, err := Turn(img, r)
		if err != nil {
			t.Fatal(err)
		}
		b := out.Bounds()
		if (r.Turns()%2 == 1) != (b.Dx() == 40) {
			t.Errorf("code %d: size %v", r, b.Size())
		}
		x, y := 3, 3
		if corner[r][0] {
			x = b.Dx() - 4
		}
		if corner[r][1] {
			y = b.Dy() - 4
		}
		if c := color.RGBAModel.Convert(out.At(x, y)).(color.RGBA); c.R < 200 || c.G > 60 {
			t.Errorf("code %d: no marker at (%d,%d)", r, x, y)
		}
	}
}

// TestTurnInBandsAsWhole checks that turning an image a band at a time
// gives the very pixels the former Turn gave (the whole image drawn onto
// RGBA, turned by OpenCV at once), for every code, the image forms the
// decoders hand on and a sub-image, with bands of one row, a few rows and
// the whole image.
func TestTurnInBandsAsWhole(t *testing.T) {
	rect := image.Rect(0, 0, 37, 23)
	fill := func(pix []byte, seed int) {
		for i := range pix {
			pix[i] = uint8((i*7919 + seed*31 + i*i/13) % 251)
		}
	}
	gray := image.NewGray(rect)
	fill(gray.Pix, 1)
	rgba := image.NewRGBA(rect)
	fill(rgba.Pix, 2)
	nrgba := image.NewNRGBA(rect)
	fill(nrgba.Pix, 3)
	cmyk := image.NewCMYK(rect)
	fill(cmyk.Pix, 4)
	pal := image.NewPaletted(rect, color.Palette{color.RGBA{10, 20, 30, 255}, color.RGBA{200, 100, 50, 255}, color.NRGBA{90, 180, 70, 128}})
	for i := range pal.Pix {
		pal.Pix[i] = uint8(i % 3)
	}
	images := map[string]image.Image{"gray": gray, "rgba": rgba, "nrgba": nrgba, "cmyk": cmyk, "paletted": pal,
		"rgba part": rgba.SubImage(image.Rect(3, 5, 30, 22)), "gray part": gray.SubImage(image.Rect(1, 2, 36, 20))}
	for _, ratio := range []image.YCbCrSubsampleRatio{image.YCbCrSubsampleRatio444, image.YCbCrSubsampleRatio422, image.YCbCrSubsampleRatio420} {
		y := image.NewYCbCr(rect, ratio)
		fill(y.Y, 5)
		fill(y.Cb, 6)
		fill(y.Cr, 7)
		images[fmt.Sprintf("ycbcr %v", ratio)] = y
		images[fmt.Sprintf("ycbcr %v part", ratio)] = y.SubImage(image.Rect(3, 1, 34, 22))
	}
	for name, img := range images {
		for r := geom.Rotation(1); r < geom.NumRotations; r++ {
			want := turnWhole(t, img, r)
			for _, bandBytes := range []int{1, 4 * 37 * 5, 1 << 20} {
				got, err := turnInBands(img, r, bandBytes)
				if err != nil {
					t.Fatal(err)
				}
				if !samePixels(got, want) {
					t.Errorf("%s, code %d, bands of %d bytes: pixels differ from the whole turn", name, r, bandBytes)
				}
			}
		}
	}
}

// turnWhole is the former Turn: img drawn onto RGBA unless grey or RGBA,
// turned whole by OpenCV and copied into a Go image.
func turnWhole(t *testing.T, img image.Image, r geom.Rotation) image.Image {
	t.Helper()
	b := img.Bounds()
	var pix []byte
	var stride, ch int
	switch im := img.(type) {
	case *image.Gray:
		pix, stride, ch = im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], im.Stride, 1
	case *image.RGBA:
		pix, stride, ch = im.Pix[im.PixOffset(b.Min.X, b.Min.Y):], im.Stride, 4
	default:
		all := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
		draw.Draw(all, all.Bounds(), img, b.Min, draw.Src)
		pix, stride, ch = all.Pix, all.Stride, 4
	}
	src, err := wrap(pix, b.Dx(), b.Dy(), stride, ch)
	if err != nil {
		t.Fatal(err)
	}
	cur := turnMat(src, r)
	defer cur.Close()
	data, err := cur.DataPtrUint8()
	if err != nil {
		t.Fatal(err)
	}
	rect := image.Rect(0, 0, cur.Cols(), cur.Rows())
	if ch == 1 {
		out := image.NewGray(rect)
		copy(out.Pix, data)
		return out
	}
	out := image.NewRGBA(rect)
	copy(out.Pix, data)
	return out
}

// samePixels reports whether a and b are the same grey or RGBA image:
// same form, bounds and bytes.
func samePixels(a, b image.Image) bool {
	switch x := a.(type) {
	case *image.Gray:
		y, ok := b.(*image.Gray)
		return ok && x.Rect == y.Rect && bytes.Equal(x.Pix, y.Pix)
	case *image.RGBA:
		y, ok := b.(*image.RGBA)
		return ok && x.Rect == y.Rect && bytes.Equal(x.Pix, y.Pix)
	}
	return false
}
