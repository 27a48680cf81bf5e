package splice

import (
	"context"
	"image"
	"math"
	"sort"
)

// Region is a group of neighbouring tiles whose block grid is not the
// page's.
type Region struct {
	// Box is the group's bounding box in the input image's pixels.
	Box image.Rectangle
	// Phase is the group's grid and Page the page's: the column and row
	// offsets (x mod 8, y mod 8 in page pixels) where 8-pixel segments
	// lie within one block.
	Phase, Page image.Point
	// Tiles is the number of tiles in the group.
	Tiles int
	// Strength is the detector's statistic: the smaller of the column and
	// row excesses summed over the group's tiles, divided by the square
	// root of their number (a combined z-score of the group).
	Strength float64
}

// Detect returns the pieces of another JPEG found in img, strongest
// first (see Measure and Map.Regions).
func Detect(ctx context.Context, img image.Image, opt Options) ([]Region, error) {
	m, err := Measure(ctx, img, opt)
	if err != nil {
		return nil, err
	}
	return m.Regions(), nil
}

// cand is a group of tiles showing a foreign grid at offset k of one
// direction, with that offset's excess map.
type cand struct {
	k     int
	tiles []int
	z     []float64
}

// Regions returns the groups of tiles with a foreign grid in both
// directions whose strength reaches the options' MinStrength, strongest
// first; a region overlapping a stronger one is left out.
func (m *Map) Regions() []Region {
	var cands [2][]cand
	for dir := range 2 {
		for k := range 8 {
			if k == m.k0[dir] {
				continue
			}
			z, ok := m.excessMap(dir, k)
			if !ok {
				continue
			}
			for _, grp := range groups(z, m.nx, m.ny, m.opt.MinZ) {
				if len(grp) >= m.opt.MinTiles {
					cands[dir] = append(cands[dir], cand{k: k, tiles: grp, z: z})
				}
			}
		}
	}
	// a piece of another JPEG shows its grid in both directions, over the
	// same tiles
	var out []Region
	for _, cx := range cands[0] {
		in := map[int]bool{}
		for _, j := range cx.tiles {
			in[j] = true
		}
		for _, cy := range cands[1] {
			var both []int
			for _, j := range cy.tiles {
				if in[j] {
					both = append(both, j)
				}
			}
			if len(both) < m.opt.MinTiles || 2*len(both) < min(len(cx.tiles), len(cy.tiles)) {
				continue
			}
			r := m.region(both, cx.k, cy.k, cx.z, cy.z)
			if r.Strength >= m.opt.MinStrength {
				out = append(out, r)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Strength > out[j].Strength })
	kept := out[:0]
	for _, r := range out {
		overlaps := false
		for _, k := range kept {
			overlaps = overlaps || k.Box.Overlaps(r.Box)
		}
		if !overlaps {
			kept = append(kept, r)
		}
	}
	return kept
}

// region scores the tiles idx for the foreign grid (kx, ky) with the
// excess maps zx, zy; a grid that does not zero more segments than every
// other offset over the tiles (content with a period of a few pixels
// favours several offsets alike) scores 0.
func (m *Map) region(idx []int, kx, ky int, zx, zy []float64) Region {
	r := Region{Phase: image.Pt(kx, ky), Page: image.Pt(m.k0[0], m.k0[1]), Tiles: len(idx)}
	var sx, sy float64
	n := 0
	for _, j := range idx {
		r.Box = r.Box.Union(m.tileRect(j))
		if !math.IsNaN(zx[j]) && !math.IsNaN(zy[j]) { // tiles with too few segments say nothing
			sx += zx[j]
			sy += zy[j]
			n++
		}
	}
	// next to the page's own grid in both directions is where smooth
	// genuine texture (skin, sky) zeroes more segments than the page's
	// profile says; a pasted piece lands there one time in 16
	near := func(k, k0 int) bool { d := mod8(k - k0); return d == 1 || d == 7 }
	if near(kx, m.k0[0]) && near(ky, m.k0[1]) {
		return r
	}
	if n > 0 && m.dominant(idx, 0, kx) && m.dominant(idx, 1, ky) {
		r.Strength = math.Max(0, math.Min(sx, sy)/math.Sqrt(float64(n)))
	}
	return r
}

// Box measures how strongly the tiles inside box show one foreign grid:
// the strongest (column, row) offset pair other than the page's, scored
// as Regions scores a group. It is meant for a region known in advance
// (a portrait's photo box); the result's Strength is 0 when the box holds
// no whole tile or no foreign grid.
func (m *Map) Box(box image.Rectangle) Region {
	var idx []int
	for i := range m.tiles {
		if r := m.tileRect(i); r.In(box) && r.Dx() == m.opt.Tile && r.Dy() == m.opt.Tile {
			idx = append(idx, i)
		}
	}
	best := Region{Box: box, Page: image.Pt(m.k0[0], m.k0[1])}
	if len(idx) == 0 {
		return best
	}
	var maps [2][8][]float64
	for dir := range 2 {
		for k := range 8 {
			if k != m.k0[dir] {
				if z, ok := m.excessMap(dir, k); ok {
					maps[dir][k] = z
				}
			}
		}
	}
	for kx := range 8 {
		for ky := range 8 {
			if maps[0][kx] == nil || maps[1][ky] == nil {
				continue
			}
			if r := m.region(idx, kx, ky, maps[0][kx], maps[1][ky]); r.Strength > best.Strength {
				best = r
			}
		}
	}
	best.Box = box
	return best
}

// excessMap returns, per tile, the excess of offset k in direction dir
// over what the page's profile predicts, less the page's median tile
// (NaN where a tile has too few segments). It fails when too few tiles
// count or when the offset is a second grid of the whole page (a cropped
// and re-saved picture keeps its camera's grid under the new one).
func (m *Map) excessMap(dir, k int) ([]float64, bool) {
	var prof [8]float64
	for j := range 8 {
		prof[j] = (m.page.zero[dir][j] + 1) / (m.page.n[dir][j] + 2)
	}
	z := make([]float64, len(m.tiles))
	var valid []float64
	high := 0
	for i := range m.tiles {
		z[i] = math.NaN()
		if v, ok := m.tiles[i].excess(dir, k, prof, m.opt.MinSegments); ok {
			z[i] = v
			valid = append(valid, v)
			if v >= m.opt.MinZ {
				high++
			}
		}
	}
	if len(valid) < 9 || float64(high) > m.opt.PageShare*float64(len(valid)) {
		return nil, false
	}
	med := median(valid)
	for i := range z {
		z[i] -= med
	}
	return z, true
}

// excess is how far, in standard errors, the count of zeroed segments at
// offset k of direction dir stands above what the page's profile expects
// (prof: the page's share of zeroed segments per offset), scaled to the
// tile by its offsets other than k and its neighbours (a grid at k also
// zeroes many segments one pixel off).
func (tc *tileCounts) excess(dir, k int, prof [8]float64, minSeg float64) (float64, bool) {
	n := tc.n[dir][k]
	if n < minSeg {
		return 0, false
	}
	var zs, es float64
	for j := range 8 {
		if d := mod8(j - k); d > 1 && d < 7 {
			zs += tc.zero[dir][j]
			es += tc.n[dir][j] * prof[j]
		}
	}
	if es <= 0 {
		return 0, false
	}
	p := math.Min(prof[k]*(zs+1)/(es+1), 0.99)
	e := n * p
	return (tc.zero[dir][k] - e) / math.Sqrt(e*(1-p)+1), true
}

// dominant reports whether offset k of direction dir has a larger share
// of zeroed segments over the tiles idx than every offset that is not its
// neighbour.
func (m *Map) dominant(idx []int, dir, k int) bool {
	var z, n [8]float64
	for _, j := range idx {
		for o := range 8 {
			z[o] += m.tiles[j].zero[dir][o]
			n[o] += m.tiles[j].n[dir][o]
		}
	}
	share := z[k] / max(n[k], 1)
	for o := range 8 {
		if d := mod8(o - k); d > 1 && d < 7 && z[o]/max(n[o], 1) >= share {
			return false
		}
	}
	return true
}

// median returns the median of v (v is reordered).
func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}

// groups returns the 8-connected groups of tiles whose value is at least
// minZ (NaN never is).
func groups(z []float64, nx, ny int, minZ float64) [][]int {
	seen := make([]bool, len(z))
	var out [][]int
	for i := range z {
		if seen[i] || !(z[i] >= minZ) {
			continue
		}
		var members []int
		stack := []int{i}
		seen[i] = true
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			members = append(members, j)
			jx, jy := j%nx, j/nx
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					kx, ky := jx+dx, jy+dy
					if kx < 0 || ky < 0 || kx >= nx || ky >= ny {
						continue
					}
					k := ky*nx + kx
					if !seen[k] && z[k] >= minZ {
						seen[k] = true
						stack = append(stack, k)
					}
				}
			}
		}
		out = append(out, members)
	}
	return out
}
