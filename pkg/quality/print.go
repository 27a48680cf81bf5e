package quality

// Print is what lies printLevels or more below its paper: a scanner's
// grain and a phone photo's noise reach a few levels below the paper;
// print, even washed out to luma 230 on white, lies tens of levels below
// it. A crop with less than printShare of print holds none (a speck of
// dust is not print); one with less than sparseShare is nearly blank
// (a line of small print on a sheet).
const (
	printLevels = 16
	printShare  = 0.00002
	sparseShare = 0.01
)

// inkLevel is the level of a crop's darkest ink, which wash-out scores.
// On a document (sparseShare of print or more) it is the crop's darkest
// thousandth (inkPercentile), all of it print. On a nearly blank sheet
// the darkest thousandth reaches into the pale edges of its few strokes or
// into its paper, so the ink is the darkest tenth of the print itself; it
// is never paler than the thousandth would be. A blank sheet, scanned or
// photographed, has no print and no ink (ok is false): its darkest
// thousandth is its paper's grain, and white paper would score as blown
// out.
//
// A pixel is print by its depth below its tile's 90th percentile (the
// paper around it), so paper that darkens gently across the sheet (a
// photo's uneven light) is compared with the paper of its own tile and is
// not print either.
func inkLevel(p plane, g tileMap, h histogram) (level int, ok bool) {
	if len(g.level) == 0 || len(p.pix) == 0 {
		return 0, false
	}
	var printed histogram // levels of the print's pixels
	n := 0
	for y := 0; y < p.h; y++ {
		r := min(y/g.th, g.rows-1)
		for x, v := range p.pix[y*p.w : (y+1)*p.w] {
			if g.level[r*g.cols+min(x/g.tw, g.cols-1)]-int(v) >= printLevels {
				printed[v]++
				n++
			}
		}
	}
	share := float64(n) / float64(len(p.pix))
	switch {
	case share >= sparseShare:
		return h.percentile(inkPercentile), true
	case share >= printShare:
		return min(h.percentile(inkPercentile), printed.percentile(0.1)), true
	}
	return 0, false
}
