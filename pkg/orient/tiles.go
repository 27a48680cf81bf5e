package orient

import (
	"image"
	"math"
	"sort"

	"gocv.io/x/gocv"

	"docsuite/pkg/cvimg"
)

// The tile recipe of orinet, shared with scripts/train_orinet.py (keep the
// two in step): the crop in grey, resized so its longer side is LongSide
// pixels; cut into TileSize x TileSize tiles from the top-left corner; the
// TopTiles tiles with the highest mean |dx| + |dy| (text, mostly) are read.
const (
	LongSide = 800
	TileSize = 64
	TopTiles = 16
)

// tile is one grey tile and its gradient energy.
type tile struct {
	pix   []uint8 // TileSize * TileSize, row-major
	score float64
}

// textTiles returns up to TopTiles tiles of img, best first.
func textTiles(img image.Image) ([]tile, error) {
	g, err := greyLong(img, LongSide)
	if err != nil {
		return nil, err
	}
	w, h := g.Rect.Dx(), g.Rect.Dy()
	var tiles []tile
	for y := 0; y+TileSize <= h; y += TileSize {
		for x := 0; x+TileSize <= w; x += TileSize {
			tiles = append(tiles, tile{score: energy(g, x, y)})
			t := &tiles[len(tiles)-1]
			t.pix = make([]uint8, TileSize*TileSize)
			for r := 0; r < TileSize; r++ {
				copy(t.pix[r*TileSize:(r+1)*TileSize], g.Pix[(y+r)*g.Stride+x:])
			}
		}
	}
	sort.SliceStable(tiles, func(i, j int) bool { return tiles[i].score > tiles[j].score })
	if len(tiles) > TopTiles {
		tiles = tiles[:TopTiles]
	}
	return tiles, nil
}

// energy is the mean of |dx| + |dy| over the tile at (x, y), with the
// differences taken inside the whole image as the training script does
// (the last column's dx and the last row's dy of the image are 0).
func energy(g *image.Gray, x0, y0 int) float64 {
	w, h := g.Rect.Dx(), g.Rect.Dy()
	sum := 0
	for y := y0; y < y0+TileSize; y++ {
		row := g.Pix[y*g.Stride:]
		for x := x0; x < x0+TileSize; x++ {
			v := int(row[x])
			if x+1 < w {
				sum += absInt(int(row[x+1]) - v)
			}
			if y+1 < h {
				sum += absInt(int(g.Pix[(y+1)*g.Stride+x]) - v)
			}
		}
	}
	return float64(sum) / float64(TileSize*TileSize)
}

func absInt(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// greyLong returns img in grey (mean of R, G and B) resized so that its
// longer side is long pixels: area averaging when shrinking, bilinear when
// enlarging.
func greyLong(img image.Image, long int) (*image.Gray, error) {
	bgr, err := cvimg.BGR(img)
	if err != nil {
		return nil, err
	}
	defer bgr.Close()
	f := gocv.NewMat()
	defer f.Close()
	bgr.ConvertTo(&f, gocv.MatTypeCV32FC3)
	grey := gocv.NewMat()
	defer grey.Close()
	k := meanKernel()
	defer k.Close()
	gocv.Transform(f, &grey, k)
	w, h := grey.Cols(), grey.Rows()
	s := float64(long) / float64(max(w, h))
	size := image.Pt(max(1, int(math.Round(float64(w)*s))), max(1, int(math.Round(float64(h)*s))))
	grey8 := gocv.NewMat()
	defer grey8.Close()
	grey.ConvertToWithParams(&grey8, gocv.MatTypeCV8U, 1, 0) // rounds to nearest
	out := gocv.NewMat()
	defer out.Close()
	interp := gocv.InterpolationArea
	if s > 1 {
		interp = gocv.InterpolationLinear
	}
	gocv.Resize(grey8, &out, size, 0, 0, interp)
	b, err := out.DataPtrUint8()
	if err != nil {
		return nil, err
	}
	g := image.NewGray(image.Rect(0, 0, size.X, size.Y))
	step := out.Step()
	for y := 0; y < size.Y; y++ {
		copy(g.Pix[y*size.X:(y+1)*size.X], b[y*step:y*step+size.X])
	}
	return g, nil
}

// meanKernel is the 1x3 matrix averaging the three colour channels.
func meanKernel() gocv.Mat {
	k := gocv.NewMatWithSize(1, 3, gocv.MatTypeCV32F)
	for i := 0; i < 3; i++ {
		k.SetFloatAt(0, i, 1.0/3)
	}
	return k
}
