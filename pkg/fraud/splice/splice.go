// Package splice finds regions of a JPEG-compressed image that were
// compressed on their own before being pasted in: their 8x8 block grid is
// shifted against the grid of the rest of the page (non-aligned double
// JPEG compression).
//
// Each 32x32 tile of the luma plane gets a block-grid phase: the column
// (and row) offset modulo 8 where the jumps between neighbouring pixels are
// strongest. Jumps are clipped to a few grey levels so that printed edges
// weigh no more than faint block borders, and a phase counts only when all
// four of the tile's block borders at that offset show it (a single
// printed line is one border, a compression grid is every eighth column).
// The page's phase is the most common one; a connected group of tiles that
// agree on another phase, shifted along both axes, is a pasted region (a
// shift along one axis only is what lines of print produce).
package splice

import (
	"context"
	"fmt"
	"image"
	"sort"

	"docsuite/pkg/cvimg"
)

// Options tune the detector; the zero value uses the defaults.
type Options struct {
	// MinTiles is the smallest group of shifted tiles (default 3).
	MinTiles int
	// MinStrength is the smallest grid contrast of a tile (default 0.35).
	MinStrength float64
}

func (o *Options) defaults() {
	if o.MinTiles <= 0 {
		o.MinTiles = 3
	}
	if o.MinStrength <= 0 {
		o.MinStrength = 0.35
	}
}

// Region is a group of tiles whose block grid is shifted.
type Region struct {
	// Box is the group's bounding box in the image's pixels.
	Box image.Rectangle
	// Phase is the group's grid offset (x, y modulo 8) and PagePhase the
	// page's.
	Phase, PagePhase image.Point
	Tiles            int
	// Strength is the detector's statistic: the sum of the group's tile
	// contrasts.
	Strength float64
}

const (
	tile  = 32
	clip  = 6
	block = 8
)

// tileGrid is the phase analysis of one tile: the border strength of
// every offset along x and y.
type tileGrid struct {
	col, row [block]float64
	x0, y0   int
}

// phase is a tile's strongest offset along both axes, leaving out the
// offsets in skip (-1: none), and its contrast (the weaker axis's).
func (g tileGrid) phase(skip image.Point) (image.Point, float64) {
	px, sx := strongest(g.col, skip.X)
	py, sy := strongest(g.row, skip.Y)
	return image.Pt(mod(g.x0+px, block), mod(g.y0+py, block)), min(sx, sy)
}

// Detect returns the shifted-grid regions of img, strongest first. Phases
// are taken in the coordinates of img's bounds, which for a sub-image of a
// decoded page are the page's (the JPEG grid's) coordinates.
func Detect(ctx context.Context, img image.Image, opt Options) ([]Region, error) {
	opt.defaults()
	gray, _, err := cvimg.GrayScaled(img, 0)
	if err != nil {
		return nil, fmt.Errorf("splice: %w", err)
	}
	defer gray.Close()
	w, h := gray.Cols(), gray.Rows()
	pix := gray.ToBytes()
	o := img.Bounds().Min
	// tiles aligned to the absolute 8-pixel grid
	x0 := (block - mod(o.X, block)) % block
	y0 := (block - mod(o.Y, block)) % block
	nx, ny := (w-x0-1)/tile, (h-y0-1)/tile
	if nx < 2 || ny < 2 {
		return nil, nil
	}
	grid := make([]tileGrid, nx*ny)
	for ty := 0; ty < ny; ty++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for tx := 0; tx < nx; tx++ {
			grid[ty*nx+tx] = analyse(pix, w, x0+tx*tile, y0+ty*tile, o)
		}
	}
	page, ok := pagePhase(grid, opt.MinStrength)
	if !ok {
		return nil, nil
	}
	// every tile's strongest grid other than the page's
	type foreign struct {
		phase    image.Point
		strength float64
		ok       bool
	}
	fg := make([]foreign, len(grid))
	for i, g := range grid {
		// tiles start on the page's 8-pixel grid: offsets are page phases
		p, s := g.phase(page)
		fg[i] = foreign{phase: p, strength: s, ok: s >= opt.MinStrength && p.X != page.X && p.Y != page.Y}
	}
	var out []Region
	seen := make([]bool, len(grid))
	for i, g := range fg {
		if seen[i] || !g.ok {
			continue
		}
		// flood the group of 8-connected tiles with the same phase
		stack := []int{i}
		seen[i] = true
		r := Region{Phase: g.phase, PagePhase: page}
		box := image.Rectangle{}
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			tx, ty := k%nx, k/nx
			r.Tiles++
			r.Strength += fg[k].strength
			tb := image.Rect(x0+tx*tile, y0+ty*tile, x0+(tx+1)*tile, y0+(ty+1)*tile)
			box = box.Union(tb)
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					ux, uy := tx+dx, ty+dy
					if ux < 0 || uy < 0 || ux >= nx || uy >= ny {
						continue
					}
					j := uy*nx + ux
					if !seen[j] && fg[j].ok && fg[j].phase == g.phase {
						seen[j] = true
						stack = append(stack, j)
					}
				}
			}
		}
		if r.Tiles < opt.MinTiles {
			continue
		}
		r.Box = box.Add(o)
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Strength > out[j].Strength })
	return out, nil
}

// analyse measures the border strength of every offset in the tile at
// (x0, y0) (local pixels; o is the image's origin on the page).
func analyse(pix []byte, w, x0, y0 int, o image.Point) tileGrid {
	var col, row [tile]float64
	for y := y0; y < y0+tile; y++ {
		i := y*w + x0
		for x := 0; x < tile; x++ {
			c := int(pix[i+x])
			col[x] += float64(min(abs(int(pix[i+x+1])-c), clip))
			row[y-y0] += float64(min(abs(int(pix[i+x+w])-c), clip))
		}
	}
	return tileGrid{col: robust(col[:]), row: robust(row[:]), x0: x0 + o.X, y0: y0 + o.Y}
}

// robust is, for each offset, the weakest of the tile's borders at that
// offset: a compression grid marks every one of them.
func robust(sum []float64) [block]float64 {
	var r [block]float64
	for p := 0; p < block; p++ {
		lo := 1e18
		for x := p; x < len(sum); x += block {
			lo = min(lo, sum[x])
		}
		r[p] = lo
	}
	return r
}

// strongest returns the offset with the strongest borders, leaving out
// skip (-1: none), and its contrast against the remaining offsets.
func strongest(r [block]float64, skip int) (int, float64) {
	best := -1
	for p := 0; p < block; p++ {
		if p != skip && (best < 0 || r[p] > r[best]) {
			best = p
		}
	}
	rest, n := 0.0, 0
	for p := 0; p < block; p++ {
		if p != best && p != skip {
			rest += r[p]
			n++
		}
	}
	rest /= float64(n)
	return best, (r[best] - rest) / (rest + 4)
}

// pagePhase is the most common phase among tiles whose grid contrast
// reaches minStrength; it needs at least a fifth of them to agree.
func pagePhase(grid []tileGrid, minStrength float64) (image.Point, bool) {
	count := map[image.Point]int{}
	n := 0
	for _, g := range grid {
		if p, s := g.phase(image.Pt(-1, -1)); s >= minStrength {
			count[p]++
			n++
		}
	}
	var best image.Point
	bn := 0
	for p, c := range count {
		if c > bn || c == bn && (p.Y < best.Y || p.Y == best.Y && p.X < best.X) {
			best, bn = p, c
		}
	}
	return best, n > 0 && bn*5 >= n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func mod(a, m int) int { return ((a % m) + m) % m }
