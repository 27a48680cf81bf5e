package extract

import (
	"context"
	"errors"
	"fmt"
	"image"
	"regexp"
	"strings"

	xdraw "golang.org/x/image/draw"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/editdist"
	"docsuite/pkg/mrz"
	"docsuite/pkg/ppocr"
)

// Character sets of the visual fields.
const (
	cyrUpper  = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
	nameChars = cyrUpper + "- "
	textChars = cyrUpper + "0123456789 .,-()№"
)

// visual describes how one field is read from the visual zone.
type visual struct {
	whitelist string
	block     bool
	// format validates and normalises the text; "" rejects it.
	format func(string) string
	// floor is the least confidence of a reading that passes format,
	// whatever Tesseract's score (the sex: МУЖ. or ЖЕН. read beside a
	// caption scores near zero, and every such answer was right on the
	// factory's 240 passports of 2026-11-26, 215 answered).
	floor float64
}

var (
	reDate = regexp.MustCompile(`(\d{2})\.?(\d{2})\.?(\d{4})`)
	reCode = regexp.MustCompile(`(\d{3})\D?(\d{3})`)
	reNum  = regexp.MustCompile(`(\d{2})\s*(\d{2})\s*(\d{6})`)
)

var passportVisual = map[string]visual{
	"surname":           {whitelist: nameChars, format: name},
	"first_name":        {whitelist: nameChars, format: name},
	"other_names":       {whitelist: nameChars, format: name},
	"sex":               {whitelist: "МУЖЕН.", format: sexText, floor: 0.8},
	"date_of_birth":     {whitelist: "0123456789.", format: date},
	"date_of_issue":     {whitelist: "0123456789.", format: date},
	"subdivision_code":  {whitelist: "0123456789-", format: code},
	"place_of_birth":    {whitelist: textChars, block: true, format: placeName},
	"issuing_authority": {whitelist: textChars, block: true, format: authorityText},
	"series_and_number": {whitelist: "0123456789 ", format: number},
}

// zoneBand is the share of the crop's height, from the bottom, searched
// for the zone (in per cent): a spread's zone lies in its lowest tenth, a
// lower page's in its lowest quarter.
const zoneBand = 45

// read is one visual reading of a field.
type read struct {
	text string
	conf float64
	rect image.Rectangle
	pp   bool // read by PP-OCR (digits), not Tesseract
	// weak marks a name taken from an unsure line of the block read
	// whole: the name's own region is read first.
	weak bool
}

// Passport extracts the 13 fields of passport_main from an upright crop.
// Fields whose value is neither in a readable zone nor legible on the crop
// are left out, and a crop that shows little or nothing of a main spread
// answers its fields unsure or not at all (judge).
func (x *Extractor) Passport(ctx context.Context, img image.Image) (Fields, error) {
	small, scale := shrink(img, maxCropWidth)
	// The pages inside an open cover, in the crop's own coordinates.
	small = cvimg.Sub(small, pageBounds(small))
	out, zone, err := x.passportFields(ctx, small)
	if err != nil {
		return nil, err
	}
	dropLaterDates(out, x.now())
	out = judge(out, zone)
	if scale == 1 {
		return out, nil
	}
	o := img.Bounds().Min
	for k, f := range out {
		for i, p := range f.Coords {
			f.Coords[i] = [2]int{o.X + int(float64(p[0])*scale+0.5), o.Y + int(float64(p[1])*scale+0.5)}
		}
		out[k] = f
	}
	return out, nil
}

// maxCropWidth is the width larger crops are shrunk to before reading
// (phone photos of 3,000 pixels and more): field text is still about 40
// pixels tall, and Tesseract's time grows with the area. At 1,200 the
// specimen scan's issue line was no longer read.
const maxCropWidth = 1600

// shrink returns img scaled down to at most width pixels wide (origin at
// 0, 0) and the factor from its coordinates back to img's; 1 and img
// itself when it is narrow enough.
func shrink(img image.Image, width int) (image.Image, float64) {
	b := img.Bounds()
	if b.Dx() <= width {
		return img, 1
	}
	h := int(float64(b.Dy())*float64(width)/float64(b.Dx()) + 0.5)
	dst := image.NewRGBA(image.Rect(0, 0, width, h))
	xdraw.ApproxBiLinear.Scale(dst, dst.Bounds(), img, b, xdraw.Src, nil)
	return dst, float64(b.Dx()) / float64(width)
}

// passportFields is Passport on a crop of working size, before judge: the
// fields read and whether a Russian zone was seen on it.
func (x *Extractor) passportFields(ctx context.Context, img image.Image) (Fields, bool, error) {
	b := img.Bounds()
	// The zone ends the spread (or the lower page shown alone): reading
	// only the bottom band is three times faster than the whole crop.
	band := cvimg.Sub(img, image.Rect(b.Min.X, b.Max.Y-b.Dy()*zoneBand/100, b.Max.X, b.Max.Y))
	rd, err := x.mrz.ReadWith(ctx, band, ppocr.DetectOptions{MaxSide: 640, Upscale: true})
	if err != nil && !errors.Is(err, mrz.ErrNotFound) {
		return nil, false, fmt.Errorf("extract: %w", err)
	}
	if (rd == nil || !rd.Valid()) && !errors.Is(err, mrz.ErrNoZoneLines) {
		// Not settled: the band again at the finer scale, unless the
		// band's rows were read and none reads like a zone line (a form
		// without a zone: the finer search cost 0.7 s on a real scan and
		// found no zone on 52 of 52 factory passports without one). The
		// whole crop was searched before: on a form without a zone that
		// read every row of the upper page too, where no zone can lie.
		fine, err := x.mrz.Read(ctx, band)
		if err != nil && !errors.Is(err, mrz.ErrNotFound) {
			return nil, false, fmt.Errorf("extract: %w", err)
		}
		if fine != nil && (rd == nil || len(fine.Failed()) < len(rd.Failed())) {
			rd = fine
		}
	}
	var ru *mrz.RussianInternal
	if rd != nil && rd.IsRussianInternal() {
		ru, _ = rd.Russian()
	}
	place, placed := x.passport.fromMRZ(rd, b)
	if !placed || ru == nil {
		place, placed = x.passport.fromCrop(b), false
	}
	// Visual readings, made when a field needs one, of fields whose region
	// lies on the crop.
	vis := map[string]read{}
	var verr error
	// Black values are read on the brightest channel, where the pink
	// lace under them fades (lightest); the red number on the colours.
	var vimg image.Image = lightest(img)
	// Digit fields are read by PP-OCR first (readDigits): on the
	// factory's scans it read 112 of 112 dates, codes and numbers right
	// where Tesseract read 77, on its photos 137 of 170 against 73, and
	// Tesseract was never right where PP-OCR was wrong. Tesseract reads
	// what PP-OCR cannot, and its reading of the block (a form without a
	// zone), when it agrees, makes the digits sure.
	done := map[string]bool{}
	look := func(f string) (read, bool) {
		if v, ok := vis[f]; ok && (done[f] || !(digitFields[f] || v.weak)) {
			return v, v.text != ""
		}
		done[f] = true
		r, ok := x.region(place, f, b)
		if !ok || verr != nil {
			v := vis[f]
			return v, v.text != ""
		}
		if digitFields[f] {
			d, ok, err := x.readDigits(ctx, img, r, f, x.passport.vert[f])
			if err != nil {
				verr = err
				return read{}, false
			}
			if ok {
				if t, seen := vis[f]; seen && t.text == d.text {
					d.conf = 1
				}
				vis[f] = d
				return d, true
			}
			if v, seen := vis[f]; seen {
				return v, v.text != ""
			}
		}
		src := vimg
		if f == "series_and_number" {
			src = img
		}
		got, err := x.readVisual(ctx, src, r, passportVisual[f], x.passport.vert[f])
		if err != nil {
			verr = err
			return read{}, false
		}
		if v, ok := vis[f]; ok && got.text == "" {
			// The block's weak line, when the region reads nothing.
			return v, v.text != ""
		}
		vis[f] = got
		return got, got.text != ""
	}
	if !placed {
		// Without the zone the form's printed lines are read in order.
		ordered, err := x.byOrder(ctx, vimg, place)
		if err != nil {
			return nil, false, err
		}
		for f, r := range ordered {
			vis[f] = r
		}
	}
	out := Fields{}
	setVis := func(f string, factor float64) bool {
		v, ok := look(f)
		if !ok {
			return false
		}
		out[f] = Field{Text: v.text, Confidence: round3(v.conf * factor), Coords: quad(v.rect)}
		return true
	}
	// The number is printed along the edge of both pages: without a
	// verified zone its region on the zone's page is read (PP-OCR's digits
	// first, as every digit field); when PP-OCR reads nothing there, each
	// copy is read as red ink on white and as photographed, by Tesseract
	// and by PP-OCR, and a text read twice wins (spreadNumber).
	setNumber := func() {
		const f = "series_and_number"
		v, seen := look(f)
		if verr != nil {
			return
		}
		if seen && v.pp {
			setVis(f, 0.9)
			return
		}
		got, ok, err := x.spreadNumber(ctx, img)
		if err != nil {
			verr = err
			return
		}
		switch {
		case ok:
			out[f] = got
		case seen:
			setVis(f, 0.9)
		}
	}
	// The sex's region catches the captions beside it (Пол, Дата
	// рождения), which the whitelist turns into letters: without a
	// verified zone, narrower regions are read when it gives nothing.
	setSex := func(factor float64) {
		if setVis("sex", factor) || verr != nil {
			return
		}
		for _, m := range sexMargins {
			r, ok := place.rect(x.passport.fields["sex"], m[0], m[1], b)
			if !ok {
				continue
			}
			got, err := x.readVisual(ctx, vimg, r, passportVisual["sex"], false)
			if err != nil {
				verr = err
				return
			}
			if got.text != "" {
				out["sex"] = Field{Text: got.text, Confidence: round3(got.conf * factor), Coords: quad(got.rect)}
				return
			}
		}
	}
	// chooseMRZ puts the zone's value when its check digit holds, placed
	// on the field's printed region (or the zone's line when the region is
	// off the crop); otherwise the visual value.
	chooseMRZ := func(f, val string, checked bool, line image.Rectangle) {
		if val == "" || !checked {
			switch f {
			case "series_and_number":
				setNumber()
			case "sex":
				setSex(0.9)
			default:
				setVis(f, 0.9)
			}
			return
		}
		r, ok := x.region(place, f, b)
		if !ok {
			r = line
		}
		out[f] = Field{Text: val, Confidence: 0.98, Coords: quad(r)}
	}
	if rd != nil && ru != nil {
		l1, l2 := rd.Rects[0], rd.Rects[1]
		ok := map[string]bool{}
		for _, c := range rd.Checks {
			ok[c.Field] = c.OK()
		}
		chooseMRZ("series_and_number", ru.Series+" "+ru.Number, ok["document_number"] && ok["optional_data"], l2)
		chooseMRZ("date_of_birth", x.zoneBirthDate(ru, ok["optional_data"]), ok["birth_date"], l2)
		chooseMRZ("date_of_issue", x.mrzDate(ru.IssueDate), ok["optional_data"], l2)
		chooseMRZ("subdivision_code", ru.Subdivision, ok["optional_data"], l2)
		sex := map[string]string{"M": "МУЖ.", "F": "ЖЕН."}[ru.Sex]
		// The sex is covered by no check digit: a valid zone vouches for
		// the line's reading.
		chooseMRZ("sex", sex, rd.Valid(), l2)
		// Names have no check digit either; the zone's line is cut after
		// 39 characters, so a name that reaches the end may be incomplete.
		truncated := !strings.HasSuffix(rd.Lines[0], "<")
		// A name line that lost characters in recognition, or whose blurred
		// fillers were read as letters, is no evidence.
		namesOK := rd.Valid() && rd.Lost[0] == 0 && rd.Refilled[0] == 0
		lookAlikes := false // a name settled against the zone's look-alikes
		for f, val := range map[string]string{"surname": ru.Surname, "first_name": ru.GivenName, "other_names": ru.Patronymic} {
			v, seen := look(f)
			switch {
			case val == "":
				setVis(f, 0.9)
			case seen && sameName(v.text, val):
				out[f] = Field{Text: val, Confidence: 0.98, Coords: quad(v.rect)}
			case truncated && seen && strings.HasPrefix(v.text, val):
				setVis(f, 0.9)
			case seen && lookAlike(mrz.EncodeRusName(v.text), mrz.EncodeRusName(val)):
				// The zone's reading differs only in look-alike characters
				// (8 and B stand for Я and Б): the visual name settles it.
				out[f] = Field{Text: v.text, Confidence: 0.95, Coords: quad(v.rect)}
				lookAlikes = true
			case namesOK:
				r := l1
				if seen {
					r = v.rect
				}
				out[f] = Field{Text: val, Confidence: round3(0.9 * rd.Confidence), Coords: quad(r)}
			default:
				if !setVis(f, 0.8) {
					out[f] = Field{Text: val, Confidence: round3(0.6 * rd.Confidence), Coords: quad(l1)}
				}
			}
		}
		conf := 0.5 * rd.Confidence
		if rd.Valid() {
			conf = 0.99
		}
		conf1 := conf
		if !namesOK {
			conf1 = 0.5 * rd.Confidence
		}
		line1 := rd.Lines[0]
		if !namesOK {
			// The name line lost characters: written again from the names
			// chosen (the table is one character per letter) when they are
			// sure and the result is near the reading.
			sure := min(out["surname"].Confidence, out["first_name"].Confidence)
			if p, ok := out["other_names"]; ok {
				sure = min(sure, p.Confidence)
			}
			if w, ok := rusNameLine(out); ok && w != line1 && sure >= 0.75 && editdist.Strings(w, line1) <= 8 {
				line1, conf1 = w, 0.9*sure
			}
		} else if lookAlikes {
			// A name the visual zone settled (6, Э, read for G): the line is
			// written again from the names when it differs from the
			// reading in look-alikes only (no check digit covers it).
			if w, ok := rusNameLine(out); ok && w != line1 && lookAlike(w, line1) {
				line1 = w
			}
		}
		out["mrz_1"] = Field{Text: line1, Confidence: round3(conf1), Coords: quad(l1)}
		out["mrz_2"] = Field{Text: rd.Lines[1], Confidence: round3(conf), Coords: quad(l2)}
	} else {
		setNumber()
		setSex(0.9)
		for _, f := range []string{"date_of_birth", "date_of_issue", "subdivision_code", "surname", "first_name", "other_names"} {
			setVis(f, 0.9)
		}
	}
	setVis("place_of_birth", 0.9)
	setVis("issuing_authority", 0.9)
	if verr != nil {
		return nil, false, verr
	}
	// The main spread is pages 2 and 3 by definition of the type (judge
	// leaves it out, or makes it unsure, on a crop that shows little of a
	// spread). Its coords are where the page number is printed, or the
	// whole crop when that place is cut off (a scan cropped to the pages'
	// text).
	if box, ok := x.passport.fields["page_number"]; ok {
		r, _ := place.rect(box, 0, 0, b)
		if r.Empty() {
			r = b
		}
		out["page_number"] = Field{Text: "2-3", Confidence: 0.99, Coords: quad(r)}
	}
	return out, ru != nil, nil
}

// sexMargins are the margins (millimetres across, down) of the narrower
// regions the sex is read from when its own region gives nothing: the
// value alone, without the captions either side.
var sexMargins = [][2]float64{{-1, 0.5}, {0, 1}}

// region is where field f is printed on the crop, with a margin; ok is
// false when it is not (mostly) on the crop.
func (x *Extractor) region(place placement, f string, b image.Rectangle) (image.Rectangle, bool) {
	box, ok := x.passport.fields[f]
	if !ok {
		return image.Rectangle{}, false
	}
	if x.passport.vert[f] {
		// The number printed along the edge: forms differ in how far in.
		return place.rect(box, 5, 1, b)
	}
	return place.rect(box, 1.5, 1, b)
}
