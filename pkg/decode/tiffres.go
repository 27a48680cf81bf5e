package decode

import (
	"encoding/binary"
	"math"
)

// A fax is stored at 204 × 98 or 204 × 196 pixels an inch (TIFF Class F):
// its pixels are not square, and the page as stored is squashed to half its
// height. Fax viewers and libtiff's tools show it at its resolutions (GNOME's
// document viewer stretches the page's height by XResolution / YResolution;
// tiff2pdf and tiff2ps make the page's size from them), and so does a PDF
// viewer showing the same fax in a PDF. A TIFF page whose two resolutions
// differ is therefore resampled to square pixels, its lower-resolution side
// enlarged to the higher resolution, as a PDF page's scan of such pixels is
// rendered at its higher resolution (pdfplain.go): coords are in that grid.

// squareTolerance is how far apart two resolutions may be, as a share of
// the higher, for pixels still taken as square (the PDF scan's test too).
const squareTolerance = 0.02

// maxSquaredSide bounds a resampled side before it meets the pixel limit,
// so that absurd resolutions cannot overflow the pixel count.
const maxSquaredSide = 1 << 31

// tiffResolution reads the XResolution and YResolution tags of a TIFF
// structure's first IFD; ok is false unless both are there and positive.
// ResolutionUnit does not matter: both are in the same unit, and with no
// unit (1) they give the pixels' aspect ratio alone.
func tiffResolution(t []byte) (x, y float64, ok bool) {
	bo, ok := tiffByteOrder(t)
	if !ok {
		return 0, 0, false
	}
	return ifdResolution(t, bo, int64(bo.Uint32(t[4:8])))
}

// ifdResolution is tiffResolution of the IFD at off.
func ifdResolution(t []byte, bo binary.ByteOrder, off int64) (x, y float64, ok bool) {
	x, okX := ifdNumber(t, bo, off, 0x011A)
	y, okY := ifdNumber(t, bo, off, 0x011B)
	return x, y, okX && okY && x > 0 && y > 0 && !math.IsInf(x, 0) && !math.IsInf(y, 0)
}

// ifdNumber reads a tag holding one RATIONAL (as the TIFF specification
// has resolutions), or one SHORT or LONG (as some writers put them), from
// the IFD at off.
func ifdNumber(t []byte, bo binary.ByteOrder, off int64, tag uint16) (float64, bool) {
	e, ok := ifdEntry(t, bo, off, tag)
	if !ok {
		return 0, false
	}
	if bo.Uint16(t[e+2:e+4]) != 5 { // RATIONAL
		v, ok := entryValue(t, bo, e)
		return float64(v), ok
	}
	return tiffRational(t, bo, int64(bo.Uint32(t[e+8:e+12])))
}

// tiffRational reads the RATIONAL (two LONGs, numerator and denominator)
// at off.
func tiffRational(t []byte, bo binary.ByteOrder, off int64) (float64, bool) {
	if off < 8 || off+8 > int64(len(t)) {
		return 0, false
	}
	num, den := bo.Uint32(t[off:off+4]), bo.Uint32(t[off+4:off+8])
	if den == 0 {
		return 0, false
	}
	return float64(num) / float64(den), true
}

// squareSize is the size of a page of w × h pixels stored at x × y pixels
// a unit once its pixels are square: the side of the lower resolution
// enlarged to the higher one. Resolutions within squareTolerance of each
// other leave the page as it is.
func squareSize(w, h int, x, y float64) (int, int) {
	if math.Abs(x-y) <= squareTolerance*max(x, y) {
		return w, h
	}
	scale := func(n int, by float64) int {
		return int(min(math.Round(float64(n)*by), maxSquaredSide))
	}
	if y < x {
		return w, scale(h, x/y)
	}
	return scale(w, y/x), h
}
