package quality

import "slices"

// Glare score parameters (see docs/quality.md).
const (
	blownShare  = 0.6  // a tile with this share of clipped pixels is blown out
	solidShare  = 0.95 // a tile with this share of clipped pixels has no detail left
	paperMargin = 10   // paper within this many levels of clipLevel is white paper
)

// glare is the share of the document under a bright spot, scaled so that
// glareFull of the area scores 1. A spot is an area at least 3 × 3 tiles
// wide of tiles with no detail left (solidShare of their pixels clipped)
// that lies between the document's content: each of its tiles has a tile
// that is not blown out on both sides of it in its row or in its column,
// not counting the crop's outermost ring of tiles. The blown tiles next to
// a spot count too (its rim, where it covers part of a tile). White
// background or margin runs out to the crop's edge, so it is not a spot.
// On a document
// whose paper is itself at the clipping level (a white-paper scan) a
// bright spot cannot be told from blank paper and glare is 0; wash-out
// still catches an overexposed scan.
func glare(p plane) float64 { return newTileMap(p).glare() }

// glare is glare(p) of the plane g was cut from.
func (g tileMap) glare() float64 {
	if len(g.clipped) == 0 || g.paper >= clipLevel-paperMargin {
		return 0
	}
	blown := make([]bool, len(g.clipped))
	solid := make([]bool, len(g.clipped))
	for i, c := range g.clipped {
		blown[i] = c >= blownShare
		solid[i] = c >= solidShare
	}
	spots := g.open(solid)
	in := g.enclosed(spots, blown)
	// The spot's rim, where it covers only part of a tile, is the blown
	// tiles next to it.
	counted := make([]bool, len(in))
	n := 0
	for i := range in {
		x, y := i%g.cols, i/g.cols
		for dy := -1; dy <= 1 && !counted[i]; dy++ {
			for dx := -1; dx <= 1; dx++ {
				nx, ny := x+dx, y+dy
				if nx >= 0 && ny >= 0 && nx < g.cols && ny < g.rows && in[ny*g.cols+nx] && (blown[i] || dx == 0 && dy == 0) {
					counted[i] = true
					n++
					break
				}
			}
		}
	}
	return clamp01(float64(n) / float64(len(in)) / glareFull)
}

// tileMap is the crop cut into about tileGrid × tileGrid tiles.
type tileMap struct {
	cols, rows int
	tw, th     int // a tile's width and height in pixels
	// level is each tile's 90th percentile, row by row.
	level []int
	// clipped is each tile's share of pixels at clipLevel or brighter,
	// row by row.
	clipped []float64
	// paper is the document's paper level: the median, over the tiles
	// that are not blown out, of each tile's 90th percentile (255 when
	// every tile is blown out).
	paper int
}

func newTileMap(p plane) tileMap {
	tw, th := max(1, p.w/tileGrid), max(1, p.h/tileGrid)
	g := tileMap{cols: p.w / tw, rows: p.h / th, tw: tw, th: th}
	var paper []int
	for r := 0; r < g.rows; r++ {
		for c := 0; c < g.cols; c++ {
			var h histogram
			for y := r * th; y < (r+1)*th; y++ {
				for _, v := range p.pix[y*p.w+c*tw : y*p.w+(c+1)*tw] {
					h[v]++
				}
			}
			c, l := h.share(clipLevel), h.percentile(0.9)
			g.clipped = append(g.clipped, c)
			g.level = append(g.level, l)
			if c < blownShare { // paper is read where it is not blown out
				paper = append(paper, l)
			}
		}
	}
	if len(paper) == 0 {
		g.paper = 255
		return g
	}
	slices.Sort(paper)
	g.paper = paper[len(paper)/2]
	return g
}

// at reports m at tile (x, y); tiles outside the grid are not set, so a
// spot needs a 3 × 3 core inside the crop and a blown band along the
// edge less than 3 tiles deep is no spot.
func (g tileMap) at(m []bool, x, y int) bool {
	if x < 0 || y < 0 || x >= g.cols || y >= g.rows {
		return false
	}
	return m[y*g.cols+x]
}

// open is a morphological opening of m with a 3 × 3 square: it keeps the
// areas at least 3 × 3 tiles wide and drops thin ones (blank paper between
// lines of text, white rules and frames).
func (g tileMap) open(m []bool) []bool {
	eroded := make([]bool, len(m))
	for i := range m {
		x, y := i%g.cols, i/g.cols
		eroded[i] = true
		for dy := -1; dy <= 1 && eroded[i]; dy++ {
			for dx := -1; dx <= 1; dx++ {
				if !g.at(m, x+dx, y+dy) {
					eroded[i] = false
					break
				}
			}
		}
	}
	out := make([]bool, len(m))
	for i := range m {
		x, y := i%g.cols, i/g.cols
		for dy := -1; dy <= 1 && !out[i]; dy++ {
			for dx := -1; dx <= 1; dx++ {
				nx, ny := x+dx, y+dy
				if nx >= 0 && ny >= 0 && nx < g.cols && ny < g.rows && eroded[ny*g.cols+nx] {
					out[i] = true
					break
				}
			}
		}
	}
	return out
}

// enclosed marks the tiles of spots that have a tile that is not blown out
// on both sides in their row or on both sides in their column, looking
// only inside the crop's outermost ring of tiles (where a background's
// shading or vignetting can leave tiles below clipping): the spot lies on
// the document, between its content. A bright area with nothing but blown
// tiles between it and the crop's edge, across and along, is margin.
func (g tileMap) enclosed(spots, blown []bool) []bool {
	out := make([]bool, len(spots))
	for i, s := range spots {
		if !s {
			continue
		}
		x, y := i%g.cols, i/g.cols
		side := func(dx, dy int) bool {
			for nx, ny := x+dx, y+dy; nx > 0 && ny > 0 && nx < g.cols-1 && ny < g.rows-1; nx, ny = nx+dx, ny+dy {
				if !blown[ny*g.cols+nx] {
					return true
				}
			}
			return false
		}
		out[i] = (side(-1, 0) && side(1, 0)) || (side(0, -1) && side(0, 1))
	}
	return out
}
