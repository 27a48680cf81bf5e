package synth

import (
	"image"
	"image/color"
	"io/fs"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gocv.io/x/gocv"
)

// photoSet lists raster photographs under some folders and loads each at
// most once, on first use.
type photoSet struct {
	paths []string
	mu    sync.Mutex
	imgs  map[string]*photoEntry
}

type photoEntry struct {
	once sync.Once
	img  *image.RGBA
}

// photoMaxSide bounds cached background photographs.
const photoMaxSide = 1600

func newPhotoSet(dirs []string) *photoSet {
	ps := &photoSet{imgs: map[string]*photoEntry{}}
	seen := map[string]bool{}
	for _, d := range dirs {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return nil
			}
			ext := strings.ToLower(filepath.Ext(p))
			if ext != ".jpg" && ext != ".jpeg" && ext != ".png" && ext != ".webp" {
				return nil
			}
			if strings.Contains(p, "logo") || strings.Contains(p, "grub-4x3") {
				return nil
			}
			real, err := filepath.EvalSymlinks(p)
			if err != nil || seen[real] {
				return nil
			}
			if info, err := e.Info(); err != nil || info.Size() < 20000 {
				return nil
			}
			seen[real] = true
			ps.paths = append(ps.paths, real)
			return nil
		})
	}
	sort.Strings(ps.paths)
	return ps
}

func (ps *photoSet) get(i int) *image.RGBA {
	p := ps.paths[i]
	ps.mu.Lock()
	e, ok := ps.imgs[p]
	if !ok {
		e = &photoEntry{}
		ps.imgs[p] = e
	}
	ps.mu.Unlock()
	e.once.Do(func() {
		img, err := loadImageFile(p, photoMaxSide)
		if err == nil {
			e.img = img
		}
	})
	return e.img
}

// backdrop makes the scene background: a photograph crop or a
// procedural surface (wood, cloth, desk, keyboard, paper stack), or a
// scanner lid for scans.
func (g *Generator) backdrop(r *Rand, p *painter, W, H int, scan bool) *image.RGBA {
	if scan {
		img := image.NewRGBA(image.Rect(0, 0, W, H))
		base := Pick(r, []color.RGBA{{250, 250, 248, 255}, {244, 244, 240, 255}, {236, 237, 235, 255}, {30, 30, 32, 255}, {252, 252, 252, 255}})
		fillRect(img, img.Rect, base)
		return img
	}
	if len(g.bgs.paths) > 0 && r.Bool(g.cfg.PhotoBackgroundProb) {
		if src := g.bgs.get(r.Intn(len(g.bgs.paths))); src != nil {
			if img := cropPhoto(r, src, W, H); img != nil {
				return img
			}
		}
	}
	return proceduralSurface(r, p, W, H)
}

// cropPhoto takes a random window of src scaled to W x H.
func cropPhoto(r *Rand, src *image.RGBA, W, H int) *image.RGBA {
	sw, sh := float64(src.Rect.Dx()), float64(src.Rect.Dy())
	zoom := r.Range(0.45, 1)
	aw := float64(W) / float64(H)
	cw, ch := sw*zoom, sw*zoom/aw
	if ch > sh*zoom {
		ch = sh * zoom
		cw = ch * aw
	}
	x0, y0 := r.Range(0, sw-cw), r.Range(0, sh-ch)
	rect := image.Rect(int(x0), int(y0), int(x0+cw), int(y0+ch))
	sub := image.NewRGBA(image.Rect(0, 0, rect.Dx(), rect.Dy()))
	for y := 0; y < rect.Dy(); y++ {
		copy(sub.Pix[y*sub.Stride:(y+1)*sub.Stride], src.Pix[src.PixOffset(rect.Min.X, rect.Min.Y+y):])
	}
	if r.Bool(0.5) {
		flipH(sub)
	}
	out, err := resize(sub, W, H, gocv.InterpolationLinear)
	if err != nil {
		return nil
	}
	return out
}

func flipH(img *image.RGBA) {
	w := img.Rect.Dx()
	for y := 0; y < img.Rect.Dy(); y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < w/2; x++ {
			i, j := 4*x, 4*(w-1-x)
			for c := 0; c < 4; c++ {
				row[i+c], row[j+c] = row[j+c], row[i+c]
			}
		}
	}
}

// proceduralSurface draws a table-like surface at low resolution, scales
// it up and adds fine detail.
func proceduralSurface(r *Rand, p *painter, W, H int) *image.RGBA {
	kind := r.Weighted([]float64{3, 2, 2, 1.2, 1, 1})
	lw, lh := W/4, H/4
	low := image.NewRGBA(image.Rect(0, 0, lw, lh))
	vertical := r.Bool(0.5)
	switch kind {
	case 0: // wood: growth rings bent by noise, with fine grain added later
		base := Pick(r, []color.RGBA{{150, 100, 60, 255}, {120, 75, 45, 255}, {190, 145, 100, 255}, {95, 60, 40, 255}, {205, 170, 125, 255}})
		freq := r.Range(0.15, 0.5)
		seed := uint32(r.Intn(1 << 30))
		plank := r.Range(30, 80)
		for y := 0; y < lh; y++ {
			for x := 0; x < lw; x++ {
				u, v := float64(x), float64(y)
				if vertical {
					u, v = v, u
				}
				pl := math.Floor(v / plank)
				n := fbm(u*0.01, v*0.06+pl*7, seed, 3)
				t := math.Sin((v+n*18)*freq + pl*3)
				t = 0.5 + 0.5*t
				t = t * t
				c := mix(base, color.RGBA{60, 35, 20, 255}, clamp(0.1+0.3*t+0.2*(n-0.5), 0, 1))
				if math.Mod(v, plank) < 0.8 {
					c = mix(c, color.RGBA{30, 20, 10, 255}, 0.5)
				}
				low.SetRGBA(x, y, c)
			}
		}
	case 1: // cloth
		base := hsl(r.Range(0, 360), r.Range(0.1, 0.6), r.Range(0.15, 0.6), 255)
		fillRect(low, low.Rect, base)
	case 2: // plain desk with gradient
		base := Pick(r, []color.RGBA{{230, 230, 225, 255}, {60, 60, 65, 255}, {200, 205, 210, 255}, {240, 235, 220, 255}, {30, 30, 35, 255}, {170, 180, 160, 255}})
		for y := 0; y < lh; y++ {
			for x := 0; x < lw; x++ {
				t := 0.15 * (float64(x)/float64(lw) - 0.5 + float64(y)/float64(lh) - 0.5)
				low.SetRGBA(x, y, mix(base, color.RGBA{0, 0, 0, 255}, clamp(t+0.1, 0, 1)))
			}
		}
	case 3: // keyboard
		fillRect(low, low.Rect, color.RGBA{35, 35, 38, 255})
	case 4: // stone / granite
		base := Pick(r, []color.RGBA{{120, 120, 118, 255}, {180, 175, 170, 255}, {70, 70, 75, 255}})
		for y := 0; y < lh; y++ {
			for x := 0; x < lw; x++ {
				h := uint32(x*73856093) ^ uint32(y*19349663) ^ uint32(r.Intn(1<<30))
				t := float64(h%1000)/1000 - 0.5
				low.SetRGBA(x, y, mix(base, color.RGBA{255, 255, 255, 255}, clamp(t*0.2+0.05, 0, 1)))
			}
		}
	default: // paper stack
		fillRect(low, low.Rect, Pick(r, []color.RGBA{{120, 90, 60, 255}, {90, 90, 95, 255}, {200, 200, 195, 255}}))
	}
	img, err := resize(low, W, H, gocv.InterpolationLinear)
	if err != nil {
		img = image.NewRGBA(image.Rect(0, 0, W, H))
	}
	switch kind {
	case 0:
		dir := 1
		if vertical {
			dir = 2
		}
		grain(img, r, dir)
	case 4:
		grain(img, r, 0)
	case 1:
		weave(img, r)
	case 3:
		drawKeyboard(p, img, r)
	case 5:
		drawPaperStack(p, img, r)
	}
	return img
}

// grain adds fine fibre streaks along x (dir 1) or y (dir 2), or
// speckles (dir 0).
func grain(img *image.RGBA, r *Rand, dir int) {
	seed := uint32(r.Intn(1 << 30))
	amp := r.Range(6, 16)
	w, h := img.Rect.Dx(), img.Rect.Dy()
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < w; x++ {
			var v float64
			switch dir {
			case 1:
				v = hash2(x/9, y, seed) - 0.5
			case 2:
				v = hash2(x, y/9, seed) - 0.5
			default:
				v = hash2(x, y, seed) - 0.5
			}
			d := int(v * amp)
			i := 4 * x
			row[i] = clampByte(int(row[i]) + d)
			row[i+1] = clampByte(int(row[i+1]) + d)
			row[i+2] = clampByte(int(row[i+2]) + d)
		}
	}
}

// weave adds a woven-fabric micro texture.
func weave(img *image.RGBA, r *Rand) {
	period := r.Range(3, 7)
	amp := r.Range(8, 22)
	ang := r.Range(0, math.Pi)
	sa, ca := math.Sincos(ang)
	lut := make([]float64, 64)
	for i := range lut {
		lut[i] = math.Sin(float64(i) / 64 * 2 * math.Pi)
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < w; x++ {
			u := (float64(x)*ca + float64(y)*sa) / period
			v := (-float64(x)*sa + float64(y)*ca) / period
			a := lut[int(u*64)&63] * lut[int(v*64)&63]
			d := int(a * amp)
			i := 4 * x
			row[i] = clampByte(int(row[i]) + d)
			row[i+1] = clampByte(int(row[i+1]) + d)
			row[i+2] = clampByte(int(row[i+2]) + d)
		}
	}
}

func clampByte(v int) uint8 {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}
