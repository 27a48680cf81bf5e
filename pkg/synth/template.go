package synth

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed templates/*.json
var templateFS embed.FS

// Template describes one document type as data: its physical size, paper,
// security patterns and the elements printed on it. Sizes and positions are
// in millimetres of the upright document, origin at its top-left corner.
type Template struct {
	// Type is the catalogue identifier; empty for base templates (files
	// whose name starts with "_"), which exist only to be extended.
	Type string `json:"type"`
	// Extends names a base template whose fields this one starts from.
	// Elements and patterns of the base come first; this template's are
	// appended unless Replace is set.
	Extends string `json:"extends,omitempty"`
	// Replace drops the base's elements and patterns instead of appending.
	Replace bool `json:"replace,omitempty"`
	// Source says which public description the layout follows.
	Source string `json:"source,omitempty"`
	// Weak marks templates known to be rough approximations.
	Weak string `json:"weak,omitempty"`
	// Locale picks name lists and transliteration (ru, kz, kg, uz, ...).
	Locale string `json:"locale,omitempty"`
	// Country is the ICAO code used in MRZ lines.
	Country string `json:"country,omitempty"`
	// SizeMM is width and height of the upright document.
	SizeMM [2]float64 `json:"size_mm,omitempty"`
	// CornerMM is the corner radius (3.18 for ID-1 cards).
	CornerMM float64 `json:"corner_mm,omitempty"`
	// Paper is the base colour; Paper2 a second colour for a gradient.
	Paper  string `json:"paper,omitempty"`
	Paper2 string `json:"paper2,omitempty"`
	// Gradient is "h", "v", "d" or "radial" when Paper2 is set.
	Gradient string `json:"gradient,omitempty"`
	// Patterns are the printed security backgrounds, drawn in order.
	Patterns []Pattern `json:"patterns,omitempty"`
	// Elements are drawn in order over the patterns.
	Elements []Element `json:"elements,omitempty"`
	// HalfProb is the chance that only the part inside Half is shown as
	// the document (e.g. only the photo page of a passport spread).
	HalfProb float64     `json:"half_prob,omitempty"`
	Half     *[4]float64 `json:"half,omitempty"`
	// Variants, for the special class "other", lists base templates to
	// pick from at random; colours are then re-tinted per instance.
	Variants []string `json:"variants,omitempty"`
	// Forms, for a catalogue type, lists base templates of its other
	// official forms (an older edition of the same certificate); an
	// instance is drawn on one of them, picked at random, with chance
	// FormProb, and on the template's own layout otherwise.
	Forms    []string `json:"forms,omitempty"`
	FormProb float64  `json:"form_prob,omitempty"`
	// Procedural, with Variants, is the share of instances whose layout
	// is drawn at random per instance (see ProceduralOther) instead of
	// picked among Variants.
	Procedural float64 `json:"procedural,omitempty"`
	// Paperlike marks thin paper (curls, folds); cards and booklets are not.
	Paperlike bool `json:"paperlike,omitempty"`
	// Retint lets per-instance hue shifts vary the look (used by "other").
	Retint bool `json:"retint,omitempty"`
	// Years bounds the issue year of generated documents.
	Years [2]int `json:"years,omitempty"`
	// ValueFonts lists the typefaces one instance may print its values
	// in: every element whose font is "value" uses the same one, picked
	// per instance (real forms are filled by many printers: condensed,
	// Times-like, Arial-like, typewriter faces).
	ValueFonts []string `json:"value_fonts,omitempty"`
	// Values overrides value sources: "key" gives a literal value for that
	// key, "key_pat" a pattern (see pattern) drawn for it, "key_list" a
	// "|"-separated list to pick from.
	Values map[string]string `json:"values,omitempty"`
}

// Pattern is one printed background pattern, rendered per pixel.
type Pattern struct {
	// Kind is one of waves, mesh, rosette, rays, grid, dots, stripes,
	// blobs, gradient, microtext, border, noise.
	Kind string `json:"kind"`
	// Box limits the pattern (x, y, w, h in mm); empty means everywhere.
	Box *[4]float64 `json:"box,omitempty"`
	// Color and Color2 are the ink colours; Alpha is opacity (default 0.35).
	Color  string  `json:"color,omitempty"`
	Color2 string  `json:"color2,omitempty"`
	Alpha  float64 `json:"alpha,omitempty"`
	// Scale is the period of the pattern in mm; Amp its wave amplitude in
	// mm; N a count (petals, rays); Width the line width in mm; Angle in
	// degrees; Center the centre of radial patterns in mm.
	Scale  float64     `json:"scale,omitempty"`
	Amp    float64     `json:"amp,omitempty"`
	N      float64     `json:"n,omitempty"`
	Width  float64     `json:"width,omitempty"`
	Angle  float64     `json:"angle,omitempty"`
	Center *[2]float64 `json:"center,omitempty"`
	Radius float64     `json:"radius,omitempty"`
	// Text is the repeated text of microtext patterns.
	Text string `json:"text,omitempty"`
}

// Element is one printed item. Kinds:
//
//	text       static text (Text)
//	field      a value (Gen) recorded under Field, with an optional Label
//	para       lines of filler text in the document's language (Gen names it)
//	rect       filled or outlined rectangle; line: a rule; lines: N ruled lines
//	photo      procedural portrait (Style bw: black and white; any: colour or
//	           black and white at random); ghost: small faint portrait
//	emblem     procedural state emblem (Style names which)
//	stamp      round or rectangular seal (Style round|rect|triangle)
//	signature  a scribble
//	mrz        machine-readable zone (Style td1|td2|td3|rus|mrva)
//	barcode, qr, chip, hologram, flag (Style names the flag)
//	table      a grid (N rows, M columns) with Gen filler
type Element struct {
	Kind string `json:"kind"`
	// Box is x, y, w, h in mm.
	Box [4]float64 `json:"box"`
	// Text is the static text or the label text of a field.
	Text string `json:"text,omitempty"`
	// Label is a caption printed small above (or left of) the value.
	Label string `json:"label,omitempty"`
	// LabelPos is "top" (default), "left" or "below".
	LabelPos string `json:"label_pos,omitempty"`
	// LabelW is the width in mm reserved for a left label.
	LabelW float64 `json:"label_w,omitempty"`
	// LabelFont is the label's typeface (default sans).
	LabelFont string `json:"label_font,omitempty"`
	// Field is the output field name; Gen the value source (defaults to Field).
	Field string `json:"field,omitempty"`
	Gen   string `json:"gen,omitempty"`
	// Font is a font key (sans, sans-bold, serif, serif-bold, cond,
	// cond-bold, mono, ocr, hand, jp, arm, deva, beng, arab), or "value":
	// the instance's pick among the template's ValueFonts.
	Font string `json:"font,omitempty"`
	// Size is the font size in mm (em height); LabelSize for labels.
	Size      float64 `json:"size,omitempty"`
	LabelSize float64 `json:"label_size,omitempty"`
	// Color of ink; LabelColor for labels; Fill for shapes.
	Color      string `json:"color,omitempty"`
	LabelColor string `json:"label_color,omitempty"`
	Fill       string `json:"fill,omitempty"`
	// Align is l, c or r.
	Align string `json:"align,omitempty"`
	// Rotate turns the element's text in degrees counter-clockwise.
	Rotate float64 `json:"rotate,omitempty"`
	// Style selects a variant of the kind.
	Style string `json:"style,omitempty"`
	// N and M are counts (lines, rows, columns, rays).
	N int `json:"n,omitempty"`
	M int `json:"m,omitempty"`
	// Width is a line width in mm.
	Width float64 `json:"width,omitempty"`
	// Prob is the chance the element is drawn (0 means always).
	Prob float64 `json:"prob,omitempty"`
	// Upper upper-cases the value.
	Upper bool `json:"upper,omitempty"`
	// Hand draws the value as handwriting.
	Hand bool `json:"hand,omitempty"`
	// Spacing is extra letter spacing in mm.
	Spacing float64 `json:"spacing,omitempty"`
}

// Static reports whether the element looks the same on every instance,
// so it can be drawn once into the cached background.
func (e *Element) Static() bool {
	switch e.Kind {
	case "text", "rect", "line", "lines", "emblem", "chip", "hologram", "flag":
		return e.Prob == 0
	}
	return false
}

// Catalogue holds every template, resolved (bases merged in).
type Catalogue struct {
	byType map[string]*Template
	bases  map[string]*Template
}

// LoadCatalogue parses and resolves the embedded templates.
func LoadCatalogue() (*Catalogue, error) {
	raw := map[string]*Template{}
	entries, err := fs.ReadDir(templateFS, "templates")
	if err != nil {
		return nil, fmt.Errorf("synth: list templates: %w", err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		b, err := templateFS.ReadFile(path.Join("templates", name))
		if err != nil {
			return nil, fmt.Errorf("synth: read %s: %w", name, err)
		}
		var t Template
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, fmt.Errorf("synth: parse %s: %w", name, err)
		}
		raw[strings.TrimSuffix(name, ".json")] = &t
	}
	c := &Catalogue{byType: map[string]*Template{}, bases: map[string]*Template{}}
	for key := range raw {
		t, err := resolve(raw, key, 0)
		if err != nil {
			return nil, err
		}
		if strings.HasPrefix(key, "_") {
			c.bases[key] = t
			continue
		}
		if t.Type != key {
			return nil, fmt.Errorf("synth: template %s.json declares type %q", key, t.Type)
		}
		if t.SizeMM[0] <= 0 || t.SizeMM[1] <= 0 {
			if len(t.Variants) == 0 {
				return nil, fmt.Errorf("synth: template %s has no size", key)
			}
		}
		c.byType[key] = t
	}
	return c, nil
}

func resolve(raw map[string]*Template, key string, depth int) (*Template, error) {
	t, ok := raw[key]
	if !ok {
		return nil, fmt.Errorf("synth: unknown template %q", key)
	}
	if depth > 8 {
		return nil, fmt.Errorf("synth: template %q: extends loop", key)
	}
	if t.Extends == "" {
		cp := *t
		return &cp, nil
	}
	base, err := resolve(raw, t.Extends, depth+1)
	if err != nil {
		return nil, fmt.Errorf("synth: template %q: %w", key, err)
	}
	out := *base
	out.Type = t.Type
	out.Extends = ""
	out.Source = pick(t.Source, base.Source)
	out.Weak = t.Weak
	out.Locale = pick(t.Locale, base.Locale)
	out.Country = pick(t.Country, base.Country)
	out.Paper = pick(t.Paper, base.Paper)
	out.Paper2 = pick(t.Paper2, base.Paper2)
	out.Gradient = pick(t.Gradient, base.Gradient)
	if t.SizeMM[0] > 0 {
		out.SizeMM = t.SizeMM
	}
	if t.CornerMM != 0 {
		out.CornerMM = t.CornerMM
	}
	if t.HalfProb != 0 {
		out.HalfProb, out.Half = t.HalfProb, t.Half
	}
	if len(t.Variants) > 0 {
		out.Variants, out.Procedural = t.Variants, t.Procedural
	}
	if t.Years[0] != 0 {
		out.Years = t.Years
	}
	if len(t.Forms) > 0 {
		out.Forms, out.FormProb = t.Forms, t.FormProb
	}
	if len(t.ValueFonts) > 0 {
		out.ValueFonts = t.ValueFonts
	}
	out.Values = map[string]string{}
	for k, v := range base.Values {
		out.Values[k] = v
	}
	for k, v := range t.Values {
		out.Values[k] = v
	}
	out.Paperlike = t.Paperlike || base.Paperlike
	out.Retint = t.Retint || base.Retint
	if t.Replace {
		out.Patterns = append([]Pattern(nil), t.Patterns...)
		out.Elements = append([]Element(nil), t.Elements...)
	} else {
		out.Patterns = append(append([]Pattern(nil), base.Patterns...), t.Patterns...)
		out.Elements = append(append([]Element(nil), base.Elements...), t.Elements...)
	}
	return &out, nil
}

func pick(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Get returns the resolved template of a type, or of a base ("_name").
func (c *Catalogue) Get(name string) (*Template, bool) {
	if t, ok := c.byType[name]; ok {
		return t, true
	}
	t, ok := c.bases[name]
	return t, ok
}

// Layouts returns the layouts instances of t are drawn on: t itself and
// the base templates of its other forms (see Template.Forms).
func (c *Catalogue) Layouts(t *Template) []*Template {
	out := []*Template{t}
	for _, name := range t.Forms {
		if f, ok := c.Get(name); ok {
			out = append(out, f)
		}
	}
	return out
}

// Types lists the catalogue's type identifiers in sorted order.
func (c *Catalogue) Types() []string {
	out := make([]string, 0, len(c.byType))
	for k := range c.byType {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
