// Package zonecheck compares a document's machine-readable zone with
// itself and with the document's visual fields.
//
// A zone whose check digits fail was typed or pasted in by someone who did
// not compute them, or was misread. The reader misreads genuine zones
// with the confidence of good readings (a real Pakistani passport's expiry
// digit, read at 0.943 with nothing corrected, where valid real zones read
// at 0.87 to 0.94), so failed check digits are reported only when the
// Checker's CheckDigits is set, and then only on a zone read cleanly. A zone
// whose check digits all hold vouches for its number, dates and (for the
// Russian internal passport, where pkg/extract knows the form) its names:
// a visual field that reads otherwise was altered after the zone was
// printed. The visual fields are read by pkg/extract on the document with
// the zone painted over, so that the extractor cannot take its values from
// the zone.
package zonecheck

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"strings"
	"time"
	"unicode/utf8"

	"docsuite/pkg/editdist"
	"docsuite/pkg/extract"
	"docsuite/pkg/mrz"
)

// Finding kinds.
const (
	CheckDigits = "check_digits"
	Visual      = "visual"
)

// Finding is one inconsistency, in the pixels of the upright image given
// to Check.
type Finding struct {
	Kind string
	Box  image.Rectangle
	// Field names the field (the failed check digit's field, or the
	// visual field).
	Field string
	// Zone and Seen are the zone's value and the visual one.
	Zone, Seen string
	// Strength is the statistic: for check digits the number of failed
	// digits; for a visual field the extractor's confidence in its
	// reading times the share of characters that differ.
	Strength float64
}

// Message says what was found, for a person.
func (f Finding) Message() string {
	if f.Kind == CheckDigits {
		return fmt.Sprintf("the machine-readable zone's check digits fail (%s), though the zone reads cleanly", f.Field)
	}
	return fmt.Sprintf("the visual %s reads %q where the machine-readable zone (check digits valid) says %q", f.Field, f.Seen, f.Zone)
}

// Checker runs the checks; it is safe for concurrent use when its reader
// and extractor are.
type Checker struct {
	rd *mrz.Reader
	x  *extract.Extractor
	// CheckDigits reports failed check digits (off in New: see the package
	// comment).
	CheckDigits bool
	// MinConfidence is the smallest mean recognition probability of a zone
	// whose failed check digits count (default 0.9).
	MinConfidence float64
	now           func() time.Time
}

// New returns a checker reading zones with rd and visual fields with x
// (nil: the zone's check digits only).
func New(rd *mrz.Reader, x *extract.Extractor) *Checker {
	return &Checker{rd: rd, x: x, MinConfidence: 0.9, now: time.Now}
}

// Check reads the zone of an upright document image of type docType and
// returns its inconsistencies; a document without a zone gives none.
func (c *Checker) Check(ctx context.Context, img image.Image, docType string) ([]Finding, error) {
	rd, err := c.rd.Read(ctx, img)
	if errors.Is(err, mrz.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("zonecheck: %w", err)
	}
	zone := image.Rectangle{}
	for _, r := range rd.Rects {
		zone = zone.Union(r)
	}
	if !rd.Valid() {
		if !c.CheckDigits {
			return nil, nil
		}
		lost := 0
		for _, l := range rd.Lost {
			lost += l
		}
		if rd.Confidence < c.MinConfidence || rd.Corrected > 0 || lost > 0 {
			return nil, nil // a misreading explains it as well as a forgery
		}
		failed := rd.Failed()
		return []Finding{{Kind: CheckDigits, Box: zone, Field: strings.Join(failed, ", "), Strength: float64(len(failed))}}, nil
	}
	if c.x == nil || docType != "passport_main" || !rd.IsRussianInternal() {
		return nil, nil
	}
	ru, err := rd.Russian()
	if err != nil {
		return nil, nil
	}
	fields, err := c.x.Passport(ctx, paintOver(img, rd.Rects))
	if err != nil {
		return nil, fmt.Errorf("zonecheck: %w", err)
	}
	want := map[string]string{"series_and_number": ru.Series + " " + ru.Number}
	if d, err := mrz.Date(ru.BirthDate, c.now(), false); err == nil {
		want["date_of_birth"] = d.Format("02.01.2006")
	}
	if d, err := mrz.Date(ru.IssueDate, c.now(), false); err == nil {
		want["date_of_issue"] = d.Format("02.01.2006")
	}
	var out []Finding
	for name, z := range want {
		f, ok := fields[name]
		if !ok || f.Text == "" {
			continue
		}
		diff := editdist.Strings(strings.ReplaceAll(z, " ", ""), strings.ReplaceAll(f.Text, " ", ""))
		if diff < 2 { // one character is within the visual reading's errors
			continue
		}
		share := float64(diff) / float64(max(utf8.RuneCountInString(z), 1))
		box := image.Rect(f.Coords[0][0], f.Coords[0][1], f.Coords[3][0], f.Coords[3][1])
		out = append(out, Finding{Kind: Visual, Box: box, Field: name, Zone: z, Seen: f.Text, Strength: f.Confidence * min(share, 1)})
	}
	return out, nil
}

// paintOver returns a copy of img with the rectangles filled with the
// colour of the pixel above the first one (the page around the zone).
func paintOver(img image.Image, rects []image.Rectangle) image.Image {
	b := img.Bounds()
	out := image.NewRGBA(b)
	draw.Draw(out, b, img, b.Min, draw.Src)
	for _, r := range rects {
		r = r.Inset(-4).Intersect(b)
		p := image.Pt(r.Min.X, max(b.Min.Y, r.Min.Y-2))
		fill := color.RGBAModel.Convert(img.At(p.X, p.Y))
		draw.Draw(out, r, &image.Uniform{C: fill}, image.Point{}, draw.Src)
	}
	return out
}
