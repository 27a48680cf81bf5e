package synth

import (
	"context"
	"fmt"
	"image"
	"sync"

	"docsuite/pkg/doctypes"
)

// Generator produces scenes. It is safe for concurrent use: call Scene
// from several goroutines with different indexes.
type Generator struct {
	cfg   Config
	rd    *Renderer
	types []string
	order []string
	pool  sync.Pool
	bgs   *photoSet
	noise []int8
}

// noiseSide is the side of the cached Gaussian noise tile.
const noiseSide = 512

// New prepares a generator: parses templates and fonts and checks that
// every requested type has a template.
func New(cfg Config) (*Generator, error) {
	cfg.defaults()
	cat, err := LoadCatalogue()
	if err != nil {
		return nil, err
	}
	fonts, err := LoadFonts()
	if err != nil {
		return nil, err
	}
	types := cfg.Types
	if len(types) == 0 {
		types = doctypes.All()
	}
	for _, t := range types {
		if _, ok := cat.Get(t); !ok {
			return nil, fmt.Errorf("synth: type %q has no template", t)
		}
	}
	g := &Generator{cfg: cfg, rd: NewRenderer(cat, fonts), types: types}
	g.rd.vary = cfg.Effects.Print
	g.rd.specimen = cfg.Effects.Specimen
	g.pool.New = func() any { return newPainter(fonts) }
	r := NewRand(cfg.Seed, 0x0DE7)
	g.order = append([]string(nil), types...)
	for i := len(g.order) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		g.order[i], g.order[j] = g.order[j], g.order[i]
	}
	g.bgs = newPhotoSet(cfg.BackgroundDirs)
	nr := NewRand(0x5EED, 0x0015E)
	g.noise = make([]int8, noiseSide*noiseSide)
	for i := range g.noise {
		g.noise[i] = int8(clamp(nr.Norm()*32, -127, 127))
	}
	return g, nil
}

// Renderer exposes the document renderer (for crops and galleries).
func (g *Generator) Renderer() *Renderer { return g.rd }

// Types lists the types this generator draws from.
func (g *Generator) Types() []string { return append([]string(nil), g.types...) }

func (g *Generator) painter() *painter  { return g.pool.Get().(*painter) }
func (g *Generator) release(p *painter) { g.pool.Put(p) }

// RenderType renders one clean upright document of type t (for galleries
// and tests), with randomness from seed and i.
func (g *Generator) RenderType(t string, seed uint64, i int) (*Doc, error) {
	tpl, ok := g.rd.cat.Get(t)
	if !ok {
		return nil, fmt.Errorf("synth: no template for %q", t)
	}
	p := g.painter()
	defer g.release(p)
	if t == doctypes.NotDocument {
		return g.notDocument(NewRand(seed, uint64(i), hashString(t)), p), nil
	}
	d, err := g.rd.Render(tpl, NewRand(seed, uint64(i), hashString(t)), p)
	if err != nil {
		return nil, err
	}
	d.Special = doctypes.IsSpecial(t)
	return d, nil
}

// SampleCrop renders a photographed scene holding only a document of
// type t and returns that document cut out and turned upright (for
// contact sheets).
func (g *Generator) SampleCrop(ctx context.Context, t string, seed uint64, i, size int) (*image.RGBA, error) {
	cfg := g.cfg
	cfg.Seed = seed ^ hashString(t)
	cfg.Types = []string{t}
	cfg.MinDocs, cfg.MaxDocs = 1, 1
	sub := &Generator{cfg: cfg, rd: g.rd, types: []string{t}, order: []string{t}, bgs: g.bgs, noise: g.noise}
	sub.pool.New = g.pool.New
	crops, err := sub.Crops(ctx, i, size, 0)
	if err != nil {
		return nil, err
	}
	if len(crops) == 0 {
		return nil, fmt.Errorf("synth: no crop for %s", t)
	}
	return Upright(crops[0].Img, crops[0].Rotation)
}

// Describe returns a type's template source note and its known weak
// points.
func (rd *Renderer) Describe(t string) (source, weak string) {
	tpl, ok := rd.cat.Get(t)
	if !ok {
		return "", ""
	}
	return tpl.Source, tpl.Weak
}
