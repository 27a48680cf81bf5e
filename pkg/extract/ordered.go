package extract

import (
	"context"
	"fmt"
	"image"
	"regexp"
	"strings"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/ocr"
)

// Blocks of the spread read whole when the zone gives no placement (in
// template millimetres, x, y, w, h): the value column of the photo page,
// right of the portrait and above the zone, and the issue block of the
// upper page.
var (
	personBlock = [4]float64{38, 89, 80, 65}
	issueBlock  = [4]float64{4, 9, 112, 33}
)

// sureLine is the least mean word confidence of a value line of the
// block taken as a name without reading the name's own region first.
const sureLine = 0.8

var (
	reDateIn = regexp.MustCompile(`\d{2}\.?\d{2}\.?\d{4}`)
	reCodeIn = regexp.MustCompile(`\d{3} ?[-–]? ?\d{3}`)
)

// valueLine is one printed line of values: its text and where it lies on
// the crop.
type valueLine struct {
	text string
	conf float64
	rect image.Rectangle
	// words are the line's words, placed on the crop like rect.
	words []ocr.Word
}

// on is l placed on the words that print want (a line holding two
// fields, the sex and the birth date or the issue date and the code, puts
// each on its own words); l itself when no words do.
func (l valueLine) on(want string) valueLine {
	if box, ok := wordsBox(l.words, want); ok {
		l.rect = box
	}
	return l
}

// readBlock reads a block with Tesseract and returns its value lines:
// small captions and unsure words dropped, as for one field.
func (x *Extractor) readBlock(ctx context.Context, img image.Image, r image.Rectangle) ([]valueLine, error) {
	sub := cvimg.Sub(img, r)
	_, lines, err := x.ocr.ReadField(ctx, sub, ocr.FieldOptions{Whitelist: textChars, Block: true})
	if err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	if err := x.rereadDoubtful(ctx, sub, lines, visual{whitelist: textChars}, 0.7, 0.5); err != nil {
		return nil, err
	}
	_, lines = valueWords(lines, 0.7, 0.5)
	var out []valueLine
	for _, l := range lines {
		words := make([]string, len(l.Words))
		sum := 0.0
		var lr image.Rectangle
		placed := make([]ocr.Word, len(l.Words))
		for i, w := range l.Words {
			words[i] = strings.ToUpper(w.Text)
			placed[i] = w
			for k := range w.Coords {
				placed[i].Coords[k] = [2]int{w.Coords[k][0] + r.Min.X, w.Coords[k][1] + r.Min.Y}
			}
			// Dates and codes pass their format check; Tesseract often
			// scores them near zero all the same.
			sum += max(w.Confidence, numericFloor(w.Text))
			wr := cornersBox(placed[i].Coords)
			if i == 0 {
				lr = wr
			} else {
				lr = lr.Union(wr)
			}
		}
		out = append(out, valueLine{text: strings.Join(words, " "), conf: sum / float64(len(words)), rect: lr, words: placed})
	}
	return out, nil
}

// byOrder reads the visual fields from the order of the printed lines,
// for crops where the zone could not place the form (no zone, or none
// legible): on the photo page the surname, given name and patronymic
// come one per line above the line holding sex and birth date (each from
// its own region instead when the birth date lies where place puts its
// region: the form fits the template), the place of birth below it; on
// the upper page the issuing authority comes above the line holding the
// issue date and the subdivision code.
func (x *Extractor) byOrder(ctx context.Context, img image.Image, place placement) (map[string]read, error) {
	b := img.Bounds()
	out := map[string]read{}
	set := func(f string, l valueLine, text string) {
		if text != "" {
			out[f] = read{text: text, conf: l.conf, rect: l.rect}
		}
	}
	if r, ok := place.rect(personBlock, 0, 0, b); ok {
		lines, err := x.readBlock(ctx, img, r)
		if err != nil {
			return nil, err
		}
		for i, l := range lines {
			if !reDateIn.MatchString(l.text) {
				continue
			}
			set("date_of_birth", l.on(reDateIn.FindString(l.text)), date(reDateIn.FindString(l.text)))
			sex := sexText(l.text)
			set("sex", l.on(strings.TrimSuffix(sex, ".")), sex)
			if x.fitsRow(place, "date_of_birth", l.rect, b) {
				// The form lies where the template says (the factory's
				// form, a flat scan): each name is the line in its
				// region, so a name not read leaves its field out
				// instead of shifting the others (and the page's
				// heading into the surname).
				// A line read unsure (a bold face's НИКИТИН as НИК) is
				// weak: the name's own region is read first, on the band
				// of its words (rereadLine), and the line kept when that
				// reads nothing.
				for _, f := range []string{"surname", "first_name", "other_names"} {
					for _, nl := range lines[:i] {
						if x.fits(place, f, nl.rect, b) {
							set(f, nl, name(nl.text))
							if r, ok := out[f]; ok && nl.conf < sureLine {
								r.weak = true
								out[f] = r
							}
							break
						}
					}
				}
			} else {
				names := []string{"surname", "first_name", "other_names"}
				if i < 3 {
					names = names[:i]
				}
				for k, f := range names {
					nl := lines[i-len(names)+k]
					set(f, nl, name(nl.text))
				}
			}
			if i+1 < len(lines) {
				pl := lines[i+1]
				var parts []string
				for _, m := range lines[i+1:] {
					parts = append(parts, m.text)
					pl.rect = pl.rect.Union(m.rect)
				}
				set("place_of_birth", pl, placeName(strings.Join(parts, " ")))
			}
			break
		}
	}
	if r, ok := place.rect(issueBlock, 0, 0, b); ok {
		lines, err := x.readBlock(ctx, img, r)
		if err != nil {
			return nil, err
		}
		for i, l := range lines {
			if !reDateIn.MatchString(l.text) {
				continue
			}
			set("date_of_issue", l.on(reDateIn.FindString(l.text)), date(reDateIn.FindString(l.text)))
			if c := reCodeIn.FindString(strings.Replace(l.text, reDateIn.FindString(l.text), "", 1)); c != "" {
				set("subdivision_code", l.on(c), code(c))
			}
			if i > 0 {
				al := lines[0]
				var parts []string
				for _, m := range lines[:i] {
					parts = append(parts, m.text)
					al.rect = al.rect.Union(m.rect)
				}
				set("issuing_authority", al, authorityText(strings.Join(parts, " ")))
			}
			break
		}
	}
	return out, nil
}

// fitsRow reports whether r, a line read on the crop, runs through the
// region of field f as place puts it: its centre lies in the region's
// height and it overlaps the region across. The birth date's line also
// holds the sex to its left, so its centre lies left of the date's region.
func (x *Extractor) fitsRow(place placement, f string, r image.Rectangle, b image.Rectangle) bool {
	fr, ok := x.region(place, f, b)
	cy := (r.Min.Y + r.Max.Y) / 2
	return ok && cy >= fr.Min.Y && cy < fr.Max.Y && r.Max.X > fr.Min.X && r.Min.X < fr.Max.X
}

// fits reports whether the centre of r, a line read on the crop, lies in
// the region of field f as place puts it (bounds b).
func (x *Extractor) fits(place placement, f string, r image.Rectangle, b image.Rectangle) bool {
	fr, ok := x.region(place, f, b)
	c := image.Pt((r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2)
	return ok && c.In(fr)
}

// numericFloor is the confidence given to a word of five or more digits,
// dots and hyphens whatever Tesseract's score: the field's format check
// (a date, a code) stands behind it.
func numericFloor(w string) float64 {
	if len(w) >= 5 && strings.Trim(w, "0123456789.-") == "" {
		return 0.6
	}
	return 0
}
