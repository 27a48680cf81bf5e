// Package tamper forges documents of the synthetic factory with known
// ground truth, so that every forgery sign can be measured: a region of a
// document copied elsewhere on it, a field pasted in from another
// document, the portrait replaced, or the file re-saved by an editor.
//
// Pasted pieces come from another document of the same type rendered by
// the factory; they carry noise of their own (the donor's camera) and are
// compressed as a JPEG of their own (quality 50 to 80) before they are
// pasted, as a piece cut from another photo or scan would be. Tampered
// files are what a forger's editor writes: the camera's JPEG decoded,
// changed and saved again at quality 88 to 96.
//
// Scenes hold one upright document (no quarter turns or mirroring, so
// that pasted pieces stay upright) of a type whose template prints a
// portrait. Every sample is a JPEG file as a camera or scanner would
// write it, with the tampered region in scene pixels.
package tamper

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/draw"
	"image/jpeg"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"

	xdraw "golang.org/x/image/draw"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
	"docsuite/pkg/synth"
)

// Kinds of samples.
const (
	Clean = "clean"
	// CleanResized, CleanEnlarged and CleanCropped are untouched
	// documents processed as people process photos before sending them:
	// scaled down or up and saved again, or cropped by a few pixels and
	// saved again. They are no forgery; they are the benign cases the
	// checks must not confuse with one.
	CleanResized  = "clean_resized"
	CleanEnlarged = "clean_enlarged"
	CleanCropped  = "clean_cropped"
	CopyMove      = "copy_move"
	PasteField    = "paste_field"
	ReplacePhoto  = "replace_photo"
	EditorResave  = "editor_resave"
	// AlterField replaces a visual field that the machine-readable zone
	// repeats (the number, a date) with the same field of another
	// document of the type, leaving the zone as it was. It is not among
	// Kinds: it is measured by the zone check (package fraud/zonecheck)
	// on the types with a zone.
	AlterField = "alter_field"
)

// ZoneFields are the visual fields AlterField changes.
var ZoneFields = []string{"series_and_number", "date_of_birth", "date_of_issue", "document_number", "number", "birth_date"}

// Kinds lists every kind in a fixed order.
var Kinds = []string{Clean, CleanResized, CleanEnlarged, CleanCropped, CopyMove, PasteField, ReplacePhoto, EditorResave}

// Tampered reports whether samples of a kind are forgeries.
func Tampered(kind string) bool {
	return kind != Clean && kind != CleanResized && kind != CleanEnlarged && kind != CleanCropped
}

// Sample is one generated file with its ground truth.
type Sample struct {
	Kind string
	// JPEG is the file as a client would send it.
	JPEG []byte
	// Doc is the document's ground truth (quad, rotation, type).
	Doc synth.SceneDoc
	// Box is the tampered region in scene pixels (empty for clean and
	// editor_resave); Source is where a copy-move took its pixels from.
	Box, Source image.Rectangle
	// Editor is the software an editor_resave sample claims.
	Editor string
}

// Maker forges samples. It is safe for concurrent use.
type Maker struct {
	gen    *synth.Generator
	photos map[string][4]float64 // portrait box per type, fractions of the document
}

// New prepares a maker over the types with a portrait (all of them when
// types is empty), 30% of its scenes flat scans. Spreads that may be
// shown by halves are left out unless they are named in types.
func New(seed uint64, types []string) (*Maker, error) {
	return NewScans(seed, types, 0.3)
}

// NewScans is New with scanProb the share of flat scans among the scenes
// (the rest are photos).
func NewScans(seed uint64, types []string, scanProb float64) (*Maker, error) {
	probe, err := synth.New(synth.Config{Seed: seed})
	if err != nil {
		return nil, err
	}
	cat := probe.Renderer().Catalogue()
	if len(types) == 0 {
		types = doctypes.All()
	}
	all := len(types) == len(doctypes.All())
	photos := map[string][4]float64{}
	var keep []string
	for _, t := range types {
		tpl, ok := cat.Get(t)
		if !ok || (tpl.Half != nil && all) || tpl.SizeMM[0] == 0 {
			continue
		}
		for _, e := range tpl.Elements {
			if e.Kind == "photo" && e.Prob == 0 && e.Box[2] > 15 {
				photos[t] = [4]float64{e.Box[0] / tpl.SizeMM[0], e.Box[1] / tpl.SizeMM[1],
					(e.Box[0] + e.Box[2]) / tpl.SizeMM[0], (e.Box[1] + e.Box[3]) / tpl.SizeMM[1]}
				keep = append(keep, t)
				break
			}
		}
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("tamper: no type with a portrait among %d", len(types))
	}
	fx := synth.DefaultEffects()
	fx.Turn, fx.Mirror, fx.Occlusion, fx.Overlap = 0, 0, 0, 0
	gen, err := synth.New(synth.Config{Seed: seed, MinDocs: 1, MaxDocs: 1, Types: keep, Effects: fx, ScanProb: scanProb})
	if err != nil {
		return nil, err
	}
	return &Maker{gen: gen, photos: photos}, nil
}

// Make generates sample i of the given kind.
func (m *Maker) Make(ctx context.Context, i int, kind string) (*Sample, error) {
	sc, err := m.gen.Scene(ctx, i)
	if err != nil {
		return nil, err
	}
	if len(sc.Docs) != 1 {
		return nil, fmt.Errorf("tamper: scene %d has %d documents", i, len(sc.Docs))
	}
	s := &Sample{Kind: kind, Doc: sc.Docs[0]}
	img, quality := sc.Img, sc.Quality
	r := synth.NewRand(uint64(i), 0x7A3, uint64(len(kind)))
	if kind != Clean && kind != EditorResave {
		// the forger (or the sender) opens the camera's JPEG and saves the
		// result anew
		cam, err := synth.EncodeJPEG(img, sc.Quality)
		if err != nil {
			return nil, err
		}
		if img, err = synth.DecodeImage(cam); err != nil {
			return nil, err
		}
		quality = int(r.Range(88, 97))
	}
	switch kind {
	case Clean, EditorResave:
	case CleanResized, CleanEnlarged:
		lo, hi := 0.55, 0.95
		if kind == CleanEnlarged {
			lo, hi = 1.15, 2
		}
		f := r.Range(lo, hi)
		img, err = scale(img, f)
		for k := range s.Doc.Quad {
			s.Doc.Quad[k].X *= f
			s.Doc.Quad[k].Y *= f
		}
		quality = int(r.Range(70, 96))
	case CleanCropped:
		d := image.Pt(1+r.Intn(7), 1+r.Intn(7))
		img = crop(img, d)
		for k := range s.Doc.Quad {
			s.Doc.Quad[k].X -= float64(d.X)
			s.Doc.Quad[k].Y -= float64(d.Y)
		}
		quality = int(r.Range(70, 96))
	case CopyMove:
		s.Source, s.Box = copyMove(img, docBox(s.Doc.Quad, img.Rect), r)
	case PasteField:
		s.Box, err = m.pasteField(img, s.Doc, r, i, nil)
	case AlterField:
		s.Box, err = m.pasteField(img, s.Doc, r, i, ZoneFields)
	case ReplacePhoto:
		s.Box, err = m.replacePhoto(img, s.Doc, r, i)
	default:
		return nil, fmt.Errorf("tamper: unknown kind %q", kind)
	}
	if err != nil {
		return nil, err
	}
	if Tampered(kind) && kind != EditorResave && s.Box.Empty() {
		return nil, fmt.Errorf("tamper: scene %d: no room for %s", i, kind)
	}
	s.JPEG, err = synth.EncodeJPEG(img, quality)
	if err != nil {
		return nil, err
	}
	if kind == EditorResave {
		s.Editor = synth.Pick(r, []string{"Adobe Photoshop 25.0 (Windows)", "GIMP 2.10.34", "Adobe Photoshop CC 2019 (Macintosh)"})
		if s.JPEG, err = resave(ctx, s.JPEG, s.Editor); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// scale resizes img by f (bilinear).
func scale(img *image.RGBA, f float64) (*image.RGBA, error) {
	out := image.NewRGBA(image.Rect(0, 0, int(float64(img.Rect.Dx())*f), int(float64(img.Rect.Dy())*f)))
	if out.Rect.Empty() {
		return nil, fmt.Errorf("tamper: scale %.2f leaves no pixels", f)
	}
	xdraw.ApproxBiLinear.Scale(out, out.Rect, img, img.Rect, draw.Src, nil)
	return out, nil
}

// crop drops d.X columns on the left and d.Y rows on the top.
func crop(img *image.RGBA, d image.Point) *image.RGBA {
	r := image.Rect(0, 0, img.Rect.Dx()-d.X, img.Rect.Dy()-d.Y)
	out := image.NewRGBA(r)
	draw.Draw(out, r, img, img.Rect.Min.Add(d), draw.Src)
	return out
}

// docBox is the document's bounding box in scene pixels.
func docBox(q geom.Quad, bounds image.Rectangle) image.Rectangle {
	return q.FracBounds([4]float64{0, 0, 1, 1}).Intersect(bounds)
}

// copyMove copies the most textured of a few square regions of the
// document onto another place of it that does not overlap it.
func copyMove(img *image.RGBA, doc image.Rectangle, r *synth.Rand) (src, dst image.Rectangle) {
	in := doc.Inset(min(doc.Dx(), doc.Dy()) / 12)
	side := int(float64(min(in.Dx(), in.Dy())) * r.Range(0.18, 0.3))
	if side < 56 || in.Dx() < 2*side || in.Dy() < side {
		return image.Rectangle{}, image.Rectangle{}
	}
	best := -1.0
	for k := 0; k < 8; k++ {
		p := image.Pt(in.Min.X+r.Intn(in.Dx()-side), in.Min.Y+r.Intn(in.Dy()-side))
		c := image.Rectangle{Min: p, Max: p.Add(image.Pt(side, side))}
		if t := texture(img, c); t > best {
			best, src = t, c
		}
	}
	for k := 0; k < 40; k++ {
		p := image.Pt(in.Min.X+r.Intn(in.Dx()-side), in.Min.Y+r.Intn(in.Dy()-side))
		c := image.Rectangle{Min: p, Max: p.Add(image.Pt(side, side))}
		if !c.Inset(-8).Overlaps(src) {
			dst = c
			break
		}
	}
	if dst.Empty() {
		return image.Rectangle{}, image.Rectangle{}
	}
	patch := image.NewRGBA(src)
	draw.Draw(patch, src, img, src.Min, draw.Src)
	draw.Draw(img, dst, patch, src.Min, draw.Src)
	return src, dst
}

// texture is the mean absolute horizontal difference of green in r.
func texture(img *image.RGBA, r image.Rectangle) float64 {
	var s float64
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X-1; x += 2 {
			i := img.PixOffset(x, y) + 1
			s += math.Abs(float64(img.Pix[i]) - float64(img.Pix[i+4]))
			n++
		}
	}
	return s / float64(max(n, 1))
}

// pasteField replaces a printed field of the document (one of only, when
// given) with the same field of another document of its type, cut from
// that document's own JPEG file (compressed harder, on its own block grid)
// and scaled to fit.
func (m *Maker) pasteField(img *image.RGBA, d synth.SceneDoc, r *synth.Rand, i int, only []string) (image.Rectangle, error) {
	var names []string
	for k, b := range d.Boxes {
		if only != nil && !slices.Contains(only, k) {
			continue
		}
		if b[2]-b[0] > 0.15 && b[3] > b[1] {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return image.Rectangle{}, nil
	}
	sort.Strings(names)
	name := synth.Pick(r, names)
	dst := d.Quad.FracBounds(d.Boxes[name])
	if grow := 48 - dst.Dy(); grow > 0 {
		dst.Min.Y -= grow / 2
		dst.Max.Y += grow - grow/2
	}
	dst = dst.Intersect(docBox(d.Quad, img.Rect))
	// The donor must print the field: a passport spread may be drawn as
	// its photo page alone or as the older form, and the host's box on
	// another layout would paste a caption or blank paper, not the field.
	var donor *synth.Doc
	var fb [4]float64
	for k := 0; k < donorTries; k++ {
		dn, err := m.gen.RenderType(d.Type, uint64(i)+7919+uint64(k)*104723, i+1+k)
		if err != nil {
			return image.Rectangle{}, err
		}
		if b, ok := dn.Boxes[name]; ok {
			donor, fb = dn, b
			break
		}
	}
	if donor == nil {
		return image.Rectangle{}, nil
	}
	W, H := float64(donor.Img.Rect.Dx()), float64(donor.Img.Rect.Dy())
	// the donor's field, with as much margin as the host's box has
	sr := image.Rect(int(fb[0]*W), int(fb[1]*H), int(math.Ceil(fb[2]*W)), int(math.Ceil(fb[3]*H)))
	hb := d.Quad.FracBounds(d.Boxes[name])
	if hb.Dy() > 0 && dst.Dy() > hb.Dy() {
		extra := int(float64(sr.Dy()) * float64(dst.Dy()-hb.Dy()) / float64(hb.Dy()) / 2)
		sr = sr.Inset(-extra)
	}
	sr = sr.Intersect(donor.Img.Rect)
	if sr.Empty() || dst.Empty() {
		return image.Rectangle{}, nil
	}
	return dst, paste(img, donor.Img, sr, dst, int(r.Range(50, 80)), r.Range(2, 5), r)
}

// donorTries is how many donors pasteField renders, at most, to find one
// that prints the field.
const donorTries = 4

// replacePhoto pastes the portrait of another document of the type over
// the document's portrait, compressed on its own.
func (m *Maker) replacePhoto(img *image.RGBA, d synth.SceneDoc, r *synth.Rand, i int) (image.Rectangle, error) {
	f, ok := m.photos[d.Type]
	if !ok {
		return image.Rectangle{}, nil
	}
	dst := d.Quad.FracBounds(f).Intersect(docBox(d.Quad, img.Rect))
	donor, err := m.gen.RenderType(d.Type, uint64(i)+104729, i+2)
	if err != nil {
		return image.Rectangle{}, err
	}
	W, H := float64(donor.Img.Rect.Dx()), float64(donor.Img.Rect.Dy())
	sr := image.Rect(int(f[0]*W), int(f[1]*H), int(math.Ceil(f[2]*W)), int(math.Ceil(f[3]*H))).Intersect(donor.Img.Rect)
	if sr.Empty() || dst.Empty() {
		return image.Rectangle{}, nil
	}
	return dst, paste(img, donor.Img, sr, dst, int(r.Range(50, 80)), r.Range(2, 5), r)
}

// paste scales src's part sr to dst's size, adds the sensor noise of the
// camera that took the donor (standard deviation sigma), compresses it as
// a JPEG of its own at quality q and draws it over dst.
func paste(img, src *image.RGBA, sr, dst image.Rectangle, q int, sigma float64, r *synth.Rand) error {
	scaled := image.NewRGBA(image.Rect(0, 0, dst.Dx(), dst.Dy()))
	xdraw.CatmullRom.Scale(scaled, scaled.Rect, src, sr, draw.Src, nil)
	for i := range scaled.Pix {
		if i%4 != 3 {
			scaled.Pix[i] = uint8(max(0, min(255, float64(scaled.Pix[i])+r.Norm()*sigma+0.5)))
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, scaled, &jpeg.Options{Quality: q}); err != nil {
		return fmt.Errorf("tamper: encode patch: %w", err)
	}
	patch, err := jpeg.Decode(&buf)
	if err != nil {
		return fmt.Errorf("tamper: decode patch: %w", err)
	}
	draw.Draw(img, dst, patch, image.Point{}, draw.Src)
	return nil
}

// resave writes the editor's name into the file's metadata with exiftool,
// as an editor does when it saves.
func resave(ctx context.Context, data []byte, editor string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "tamper")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "x.jpg")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, "exiftool", "-q", "-overwrite_original", "-Software="+editor, "-XMP-xmp:CreatorTool="+editor, p).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("tamper: exiftool: %w: %s", err, out)
	}
	return os.ReadFile(p)
}
