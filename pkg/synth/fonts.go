package synth

import (
	"fmt"
	"os"

	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// fontFiles lists, per font key, candidate files from Debian packages
// (fonts-dejavu, fonts-noto-core, fonts-freefont-ttf, fonts-liberation2,
// fonts-ocr-b, fonts-ipafont-gothic); the first that exists is used.
var fontFiles = map[string][]string{
	"sans":       {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/freefont/FreeSans.ttf"},
	"sans-bold":  {"/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf"},
	"serif":      {"/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", "/usr/share/fonts/truetype/freefont/FreeSerif.ttf"},
	"serif-bold": {"/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf", "/usr/share/fonts/truetype/freefont/FreeSerifBold.ttf"},
	"cond":       {"/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf"},
	"cond-bold":  {"/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf"},
	"arial":      {"/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"},
	"arial-bold": {"/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf"},
	"times":      {"/usr/share/fonts/truetype/liberation2/LiberationSerif-Regular.ttf"},
	"times-bold": {"/usr/share/fonts/truetype/liberation2/LiberationSerif-Bold.ttf"},
	"mono":       {"/usr/share/fonts/truetype/liberation2/LiberationMono-Regular.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"},
	"mono-bold":  {"/usr/share/fonts/truetype/liberation2/LiberationMono-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf"},
	"ocr":        {"/usr/share/fonts/opentype/ocr-b/OCRB.otf", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"},
	"hand":       {"/usr/share/fonts/truetype/freefont/FreeSerifItalic.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Italic.ttf"},
	"hand2":      {"/usr/share/fonts/truetype/liberation2/LiberationSerif-Italic.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Oblique.ttf"},
	"jp":         {"/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf"},
	"arm":        {"/usr/share/fonts/truetype/noto/NotoSansArmenian-Regular.ttf"},
	"arm-bold":   {"/usr/share/fonts/truetype/noto/NotoSansArmenian-Bold.ttf"},
	"deva":       {"/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf"},
	"deva-bold":  {"/usr/share/fonts/truetype/noto/NotoSansDevanagari-Bold.ttf"},
	"beng":       {"/usr/share/fonts/truetype/noto/NotoSansBengali-Regular.ttf"},
	"beng-bold":  {"/usr/share/fonts/truetype/noto/NotoSansBengali-Bold.ttf"},
	"arab":       {"/usr/share/fonts/truetype/noto/NotoNaskhArabic-Regular.ttf"},
	"arab-bold":  {"/usr/share/fonts/truetype/noto/NotoNaskhArabic-Bold.ttf"},
	"geor":       {"/usr/share/fonts/truetype/noto/NotoSansGeorgian-Regular.ttf"},
	"noto":       {"/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"},
}

// fallbackOrder is tried, in order, for runes the requested font lacks.
var fallbackOrder = []string{"sans", "noto", "arm", "deva", "beng", "arab", "jp", "geor"}

// Fonts is the set of parsed fonts. Parsed fonts are read-only and safe
// for concurrent use (each goroutine brings its own sfnt.Buffer).
type Fonts struct {
	byKey map[string]*sfnt.Font
	// broken lists runes whose glyph a font maps but cannot load (some
	// CFF fonts); those runes fall back to another font.
	broken map[*sfnt.Font]map[rune]bool
}

// LoadFonts parses every font that exists on the machine. It fails only
// when the basic sans font is missing.
func LoadFonts() (*Fonts, error) {
	f := &Fonts{byKey: map[string]*sfnt.Font{}, broken: map[*sfnt.Font]map[rune]bool{}}
	cache := map[string]*sfnt.Font{}
	for key, files := range fontFiles {
		for _, p := range files {
			if ft, ok := cache[p]; ok {
				f.byKey[key] = ft
				break
			}
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			ft, err := sfnt.Parse(b)
			if err != nil {
				continue
			}
			cache[p] = ft
			f.byKey[key] = ft
			f.broken[ft] = brokenRunes(ft)
			break
		}
	}
	if f.byKey["sans"] == nil {
		return nil, fmt.Errorf("synth: no usable font (install fonts-dejavu-core): looked for %v", fontFiles["sans"])
	}
	return f, nil
}

// Missing lists font keys with no installed file.
func (f *Fonts) Missing() []string {
	var out []string
	for k := range fontFiles {
		if f.byKey[k] == nil {
			out = append(out, k)
		}
	}
	return out
}

// get returns the font for key, or sans.
func (f *Fonts) get(key string) *sfnt.Font {
	if ft := f.byKey[key]; ft != nil {
		return ft
	}
	switch key {
	case "hand2":
		return f.get("hand")
	case "arial", "noto":
		return f.byKey["sans"]
	case "arial-bold":
		return f.get("sans-bold")
	case "times":
		return f.get("serif")
	case "times-bold":
		return f.get("serif-bold")
	}
	return f.byKey["sans"]
}

// brokenRunes probes the glyphs of Latin, digits and Cyrillic.
func brokenRunes(ft *sfnt.Font) map[rune]bool {
	var buf sfnt.Buffer
	out := map[rune]bool{}
	probe := func(lo, hi rune) {
		for r := lo; r <= hi; r++ {
			idx, err := ft.GlyphIndex(&buf, r)
			if err != nil || idx == 0 {
				continue
			}
			if _, err := ft.LoadGlyph(&buf, idx, fixed.I(20), nil); err != nil {
				out[r] = true
			}
		}
	}
	probe(0x20, 0x7e)
	probe(0x400, 0x4ff)
	return out
}
