package synth

import (
	"context"
	"fmt"
	"image"
	"image/draw"
	"math"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
)

// Record is the JSON written next to every scene.
type Record struct {
	File      string      `json:"file"`
	Width     int         `json:"width"`
	Height    int         `json:"height"`
	Scan      bool        `json:"scan,omitempty"`
	Quality   int         `json:"jpeg_quality,omitempty"`
	Documents []DocRecord `json:"documents"`
}

// DocRecord is one document of a Record. Quad is TL, TR, BL, BR of the
// upright document in page pixels; Rotation the API code (0..7).
type DocRecord struct {
	Type       string                `json:"type"`
	Quad       [4][2]float64         `json:"quad"`
	Rotation   int                   `json:"rotation"`
	Page       int                   `json:"page"`
	Fields     map[string]string     `json:"fields"`
	FieldBoxes map[string][4]float64 `json:"field_boxes,omitempty"`
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

// QuadPairs converts a quad to [[x, y] x4] rounded to 0.1 px.
func QuadPairs(q geom.Quad) [4][2]float64 {
	var out [4][2]float64
	for i, p := range q {
		out[i] = [2]float64{round1(p.X), round1(p.Y)}
	}
	return out
}

// Record builds the JSON record of a scene.
func (s *Scene) Record(file string) Record {
	rec := Record{File: file, Width: s.Img.Rect.Dx(), Height: s.Img.Rect.Dy(), Scan: s.Scan, Quality: s.Quality, Documents: []DocRecord{}}
	for _, d := range s.Docs {
		f := d.Fields
		if f == nil {
			f = map[string]string{}
		}
		rec.Documents = append(rec.Documents, DocRecord{Type: d.Type, Quad: QuadPairs(d.Quad), Rotation: int(d.Rotation), Page: d.Page, Fields: f, FieldBoxes: d.Boxes})
	}
	return rec
}

// Crop is a document cut out of a finished scene as a cutter would cut
// it: along the corners as it lies (with a little error), not yet turned
// upright. Applying Rotation to Img gives the upright document.
type Crop struct {
	Type     string
	Rotation geom.Rotation
	Img      *image.RGBA
	Fields   map[string]string
}

// Crops renders scene i, compresses it like a photo, and cuts every
// document out at most size pixels on its longer side. Jitter is the
// corner error as a fraction of the document's size.
func (g *Generator) Crops(ctx context.Context, i, size int, jitter float64) ([]Crop, error) {
	sc, img, err := g.photo(ctx, i)
	if err != nil {
		return nil, err
	}
	r := NewRand(g.cfg.Seed, uint64(i), 0xC809)
	var out []Crop
	for _, d := range sc.Docs {
		crop, err := cutQuad(img, d.Lying, size, jitter, r)
		if err != nil {
			return nil, err
		}
		out = append(out, Crop{Type: d.Type, Rotation: d.Rotation, Img: crop, Fields: d.Fields})
	}
	return out, nil
}

// photo renders scene i and decodes it after the scene's JPEG compression.
func (g *Generator) photo(ctx context.Context, i int) (*Scene, *image.RGBA, error) {
	sc, err := g.Scene(ctx, i)
	if err != nil {
		return nil, nil, err
	}
	jb, err := EncodeJPEG(sc.Img, sc.Quality)
	if err != nil {
		return nil, nil, err
	}
	img, err := DecodeImage(jb)
	if err != nil {
		return nil, nil, err
	}
	return sc, img, nil
}

// cutQuad cuts the quad out of img at most size pixels on its longer side,
// each corner moved by jitter times the quad's size (normal draws of r).
func cutQuad(img *image.RGBA, q geom.Quad, size int, jitter float64, r *Rand) (*image.RGBA, error) {
	w, h := q.Size()
	s := float64(size) / math.Max(w, h)
	cw, ch := int(math.Max(8, math.Round(w*s))), int(math.Max(8, math.Round(h*s)))
	var src [4][2]float64
	for k, p := range q {
		src[k] = [2]float64{p.X + r.Norm()*jitter*w, p.Y + r.Norm()*jitter*h}
	}
	dst := [4][2]float64{{0, 0}, {float64(cw), 0}, {0, float64(ch)}, {float64(cw), float64(ch)}}
	hm, err := homography(src, dst)
	if err != nil {
		return nil, err
	}
	crop, err := warp(img, hm, image.Rect(0, 0, cw, ch))
	if err != nil {
		return nil, fmt.Errorf("synth: crop: %w", err)
	}
	for k := 3; k < len(crop.Pix); k += 4 {
		crop.Pix[k] = 255
	}
	return crop, nil
}

// Upright applies a rotation code to an image: mirror left-right when
// the code says so, then turn clockwise k times. The result is a new image.
func Upright(img *image.RGBA, r geom.Rotation) (*image.RGBA, error) {
	if r == 0 {
		out := image.NewRGBA(image.Rect(0, 0, img.Rect.Dx(), img.Rect.Dy()))
		draw.Draw(out, out.Rect, img, img.Rect.Min, draw.Src)
		return out, nil
	}
	up, err := cvimg.Turn(img, r)
	if err != nil {
		return nil, fmt.Errorf("synth: upright: %w", err)
	}
	return up.(*image.RGBA), nil
}
