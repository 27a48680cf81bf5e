// Package splice finds a piece of another JPEG pasted into a document
// (a field or a portrait cut from another picture) by the block grid it
// brings with it.
//
// A JPEG stores 8x8 blocks of DCT coefficients, and its quantisation
// removes most of each block's high frequencies. A page saved as a JPEG
// has its blocks on the page's grid, which starts at the file's top-left
// pixel: every pixel of a camera's or scanner's picture was compressed on
// that one grid. A piece cut from another JPEG keeps the blocks of its own
// file, which fall on the page's grid only by chance (one offset in 64);
// after the forger's editor saves the page again (finely, on the page's
// grid) the piece still shows its own grid.
//
// The grid is seen in 8-pixel segments of rows and columns: a segment
// that lies within one block of a coarse JPEG has no high-frequency
// energy (DCT coefficients 4 to 7 of the segment near zero), one that
// straddles two blocks has. The page is cut into tiles of 32x32 pixels,
// and each tile counts, for each of the 8 column offsets (x mod 8 of the
// segment's first pixel) and the 8 row offsets, its non-flat segments and
// those whose high frequencies are near zero. The page's own profile (the
// share per offset over all tiles) says where its grid lies; a tile whose
// share at another offset stands far above what the page's profile
// predicts shows a foreign grid. A piece of another JPEG is a group of
// neighbouring tiles with a foreign grid at one column offset and one row
// offset, where that grid zeroes more segments than any other offset, the
// page's own included. Resized pages have no grid but the last one, and
// cropped pages keep a second grid over the whole page; neither shows a
// local group.
package splice

import (
	"context"
	"fmt"
	"image"
	"math"

	"docsuite/pkg/cvimg"
)

// Options tune the detector; the zero value uses the defaults.
type Options struct {
	// Tile is the side of the analysis tiles in pixels, a multiple of 8
	// (default 32).
	Tile int
	// Tau is the high-frequency energy (sum of the squared DCT
	// coefficients 4..7 of an 8-pixel segment, grey levels squared) at or
	// below which a segment counts as quantised away (default 12).
	Tau float64
	// Flat is the AC energy below which a segment is flat and not counted
	// (default 40).
	Flat float64
	// MinSegments is the fewest counted segments of a tile at an offset
	// (default 24).
	MinSegments float64
	// MinZ is the smallest excess of a tile in a group, in standard
	// errors above the page's typical tile (default 2).
	MinZ float64
	// MinTiles is the smallest group of tiles (default 3).
	MinTiles int
	// PageShare is the share of tiles above MinZ from which an offset is
	// taken for a second grid of the whole page (default 0.3).
	PageShare float64
	// MinStrength is the smallest strength of a reported region (default
	// DefaultMinStrength).
	MinStrength float64
}

// DefaultMinStrength is the smallest strength of a reported region
// unless Options say otherwise; docs/accuracy-fraud.md says how it was
// chosen.
const DefaultMinStrength = 10.0

func (o *Options) defaults() {
	if o.Tile <= 0 || o.Tile%8 != 0 {
		o.Tile = 32
	}
	if o.Tau <= 0 {
		o.Tau = 12
	}
	if o.Flat <= 0 {
		o.Flat = 40
	}
	if o.MinSegments <= 0 {
		o.MinSegments = 24
	}
	if o.MinZ <= 0 {
		o.MinZ = 2
	}
	if o.MinTiles <= 0 {
		o.MinTiles = 3
	}
	if o.PageShare <= 0 {
		o.PageShare = 0.3
	}
	if o.MinStrength <= 0 {
		o.MinStrength = DefaultMinStrength
	}
}

// Map is the grid measurement of one image: per tile and offset, the
// counted and the zeroed segments.
type Map struct {
	opt    Options
	bounds image.Rectangle
	// x0, y0 are the page coordinates of the first tile's corner; nx, ny
	// the number of tiles.
	x0, y0, nx, ny int
	tiles          []tileCounts
	page           tileCounts
	// k0 is the page's own offset per direction.
	k0 [2]int
}

// Measure counts the segments of img's tiles. img keeps its page
// coordinates (a sub-image of the decoded page), since the grid starts at
// the page's origin.
func Measure(ctx context.Context, img image.Image, opt Options) (*Map, error) {
	opt.defaults()
	g, err := luma(img)
	if err != nil {
		return nil, fmt.Errorf("splice: %w", err)
	}
	b := img.Bounds()
	t := opt.Tile
	m := &Map{opt: opt, bounds: b, x0: floorTo(b.Min.X, t), y0: floorTo(b.Min.Y, t)}
	m.nx, m.ny = (b.Max.X-m.x0+t-1)/t, (b.Max.Y-m.y0+t-1)/t
	m.tiles = make([]tileCounts, m.nx*m.ny)
	d := newDCTHF()
	for ty := 0; ty < m.ny; ty++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for tx := 0; tx < m.nx; tx++ {
			r := m.tileRect(ty*m.nx + tx)
			if 2*r.Dx() < t || 2*r.Dy() < t {
				continue // a sliver at the border says too little
			}
			tc := g.tile(r, &d, opt.Tau, opt.Flat)
			m.tiles[ty*m.nx+tx] = tc
			for dir := range 2 {
				for k := range 8 {
					m.page.n[dir][k] += tc.n[dir][k]
					m.page.zero[dir][k] += tc.zero[dir][k]
				}
			}
		}
	}
	// the page's grid: the offset with the largest share of zeroed
	// segments
	for dir := range 2 {
		for k := range 8 {
			if m.page.zero[dir][k]*m.page.n[dir][m.k0[dir]] > m.page.zero[dir][m.k0[dir]]*m.page.n[dir][k] {
				m.k0[dir] = k
			}
		}
	}
	return m, nil
}

// tileRect is tile i's rectangle, clipped to the image.
func (m *Map) tileRect(i int) image.Rectangle {
	t := m.opt.Tile
	x, y := m.x0+(i%m.nx)*t, m.y0+(i/m.nx)*t
	return image.Rect(x, y, x+t, y+t).Intersect(m.bounds)
}

// floorTo rounds v down to a multiple of t.
func floorTo(v, t int) int {
	if v >= 0 {
		return v / t * t
	}
	return -((-v + t - 1) / t * t)
}

// grey is a luma plane in page coordinates.
type grey struct {
	pix    []uint8
	stride int
	rect   image.Rectangle
}

func (g *grey) at(x, y int) int { return int(g.pix[(y-g.rect.Min.Y)*g.stride+x-g.rect.Min.X]) }

// luma returns img's luma: a JPEG's decoded Y plane as it is, any other
// image converted by OpenCV.
func luma(img image.Image) (*grey, error) {
	switch m := img.(type) {
	case *image.YCbCr:
		return &grey{pix: m.Y[m.YOffset(m.Rect.Min.X, m.Rect.Min.Y):], stride: m.YStride, rect: m.Rect}, nil
	case *image.Gray:
		return &grey{pix: m.Pix, stride: m.Stride, rect: m.Rect}, nil
	}
	mat, err := cvimg.Gray(img)
	if err != nil {
		return nil, err
	}
	defer mat.Close()
	return &grey{pix: mat.ToBytes(), stride: mat.Cols(), rect: img.Bounds()}, nil
}

// dctHF holds the orthonormal DCT-II basis rows 4..7 of 8 samples.
type dctHF [4][8]float64

func newDCTHF() dctHF {
	var d dctHF
	for u := 4; u < 8; u++ {
		for x := range 8 {
			d[u-4][x] = 0.5 * math.Cos(float64(2*x+1)*float64(u)*math.Pi/16)
		}
	}
	return d
}

// tile measures the grid of one tile: for each of the 8 column offsets,
// the share of 8-pixel row segments starting there whose high-frequency
// DCT energy is near zero (a JPEG quantised it away on its grid), among
// segments that are not flat; likewise for rows.
func (g *grey) tile(r image.Rectangle, d *dctHF, tau, flat float64) tileCounts {
	var tc tileCounts
	var seg [8]float64
	measure := func(dir int, k int) {
		var m float64
		for _, v := range seg {
			m += v
		}
		m /= 8
		var ac float64
		for _, v := range seg {
			ac += (v - m) * (v - m)
		}
		if ac < flat {
			return
		}
		var hf float64
		for u := range 4 {
			var c float64
			for x, v := range seg {
				c += d[u][x] * v
			}
			hf += c * c
		}
		tc.n[dir][k]++
		if hf <= tau {
			tc.zero[dir][k]++
		}
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if x+8 <= g.rect.Max.X {
				for i := range 8 {
					seg[i] = float64(g.at(x+i, y))
				}
				measure(0, mod8(x))
			}
			if y+8 <= g.rect.Max.Y {
				for i := range 8 {
					seg[i] = float64(g.at(x, y+i))
				}
				measure(1, mod8(y))
			}
		}
	}
	return tc
}

// tileCounts are a tile's segment counts per direction (0: rows, i.e.
// column offsets; 1: columns, i.e. row offsets) and offset.
type tileCounts struct {
	n, zero [2][8]float64
}

func mod8(v int) int { return ((v % 8) + 8) % 8 }
