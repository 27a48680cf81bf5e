package extract

import (
	"context"
	"fmt"
	"image"
	"regexp"
	"strings"
	"time"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/geom"
	"docsuite/pkg/ocr"
)

// The residence pages (passport_registration, pages 5-12): only the
// newest stamp is read. Its kind names the type answered: a printed
// registration passport_registration, a registration completed by hand
// passport_registration_handwritten, a deregistration
// passport_registration_deregistered.

// Types of the residence pages.
const (
	Registration             = "passport_registration"
	RegistrationHandwritten  = "passport_registration_handwritten"
	RegistrationDeregistered = "passport_registration_deregistered"
)

// isResidence reports whether docType is a residence page.
func isResidence(docType string) bool {
	return docType == Registration || docType == RegistrationHandwritten || docType == RegistrationDeregistered
}

// stampChars are the characters a stamp prints.
const stampChars = cyrUpper + "0123456789 .,-№"

var (
	reStampDate = regexp.MustCompile(`(\d{2})[.,]?(\d{2})[.,]?(\d{4})`)
	reStampCode = regexp.MustCompile(`(\d{3})\s?[-—–.]?\s?(\d{3})\s`)
	// A street line: its house (Д.) and flat (КВ.) numbers.
	reStreet = regexp.MustCompile(`^(.*?)[,.]?\s*Д[.,]?\s*(\d+[А-Я]?)[,.]?\s*(?:КВ[.,]?\s*(\d+))?$`)
)

// stampReading is one stamp read: its kind, date and lines.
type stampReading struct {
	s       stamp
	dereg   bool
	reg     bool
	date    time.Time
	dated   bool
	lines   []ocr.Line
	printed bool // the registration's values are printed, not handwritten
}

// Registration reads the newest stamp of a residence-page crop and
// returns the type its kind names and its fields: for a registration
// registration_date, locality, street, address (locality and street) and
// subdivision_code; for a deregistration deregistration_date and
// issuing_authority; and the series_and_number printed along the edge. The newest stamp is the one with the latest date
// read; without any date, the last in reading order. A page without a
// legible stamp keeps docType and has no fields.
func (x *Extractor) Registration(ctx context.Context, docType string, img image.Image) (Result, error) {
	small, scale := shrink(img, maxCropWidth)
	small = cvimg.Sub(small, pageBounds(small)) // the pages inside an open cover
	stamps, err := findStamps(small)
	if err != nil {
		return Result{}, err
	}
	var readings []stampReading
	for _, s := range stamps {
		r, err := x.readStamp(ctx, s)
		if err != nil {
			return Result{}, err
		}
		if r.reg || r.dereg || r.dated {
			readings = append(readings, r)
		}
	}
	res := Result{DocType: docType, Fields: Fields{}}
	if newest, ok := pickNewest(readings); ok {
		res.DocType, res.Fields = newest.fields()
	}
	f, ok, err := x.spreadNumber(ctx, small)
	if err != nil {
		return Result{}, err
	}
	if ok {
		res.Fields["series_and_number"] = f
	}
	if scale != 1 {
		o := img.Bounds().Min
		for k, f := range res.Fields {
			for i, p := range f.Coords {
				f.Coords[i] = [2]int{o.X + int(float64(p[0])*scale+0.5), o.Y + int(float64(p[1])*scale+0.5)}
			}
			res.Fields[k] = f
		}
	}
	return res, nil
}

// pickNewest is the stamp with the latest date; without dates, the last
// stamp in reading order.
func pickNewest(rs []stampReading) (stampReading, bool) {
	if len(rs) == 0 {
		return stampReading{}, false
	}
	best := -1
	for i, r := range rs {
		if r.dated && (best < 0 || !r.date.Before(rs[best].date)) {
			best = i
		}
	}
	if best < 0 {
		best = len(rs) - 1
	}
	return rs[best], true
}

// readStamp reads one stamp's text and tells its kind: from its ink on
// white, and when that gives neither kind nor date (blurred ink on a
// photo comes out blotched), from its brightness.
func (x *Extractor) readStamp(ctx context.Context, s stamp) (stampReading, error) {
	r, err := x.readStampImage(ctx, s, s.img)
	if err != nil || r.reg || r.dereg || r.dated {
		return r, err
	}
	return x.readStampImage(ctx, s, brightness(s.colour))
}

// readStampImage reads img, a picture of stamp s.
func (x *Extractor) readStampImage(ctx context.Context, s stamp, img image.Image) (stampReading, error) {
	_, lines, err := x.ocr.ReadField(ctx, img, ocr.FieldOptions{Whitelist: stampChars, Block: true})
	if err != nil {
		return stampReading{}, fmt.Errorf("extract: stamp: %w", err)
	}
	r := stampReading{s: s}
	for _, l := range lines {
		t := strings.ToUpper(l.Text)
		switch {
		case strings.Contains(t, "СНЯТ") || strings.Contains(t, "УЧЕТ") || strings.Contains(t, "РЕГИСТРАЦИОН"):
			r.dereg = true
		case strings.Contains(t, "ЗАРЕГ") || strings.Contains(t, "ГИСТРИРОВ"):
			r.reg = true
		}
		if d, ok := stampDate(t); ok && !r.dated {
			r.date, r.dated = d, true
		}
		if strings.TrimSpace(t) != "" {
			r.lines = append(r.lines, l)
		}
	}
	if r.dereg {
		r.reg = false
	}
	if r.reg {
		r.printed = !handwritten(s, r.lines)
	}
	return r, nil
}

// brightness is img in grey, its contrast stretched.
func brightness(img *image.RGBA) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			i := img.PixOffset(x, y)
			out.Pix[out.PixOffset(x, y)] = uint8((299*int(img.Pix[i]) + 587*int(img.Pix[i+1]) + 114*int(img.Pix[i+2])) / 1000)
		}
	}
	stretch(out)
	return out
}

// stampDate finds a valid dd.mm.yyyy date in a line.
func stampDate(t string) (time.Time, bool) {
	m := reStampDate.FindStringSubmatch(strings.ReplaceAll(t, " ", ""))
	if m == nil {
		return time.Time{}, false
	}
	d, err := time.Parse("02.01.2006", m[1]+"."+m[2]+"."+m[3])
	if err != nil || d.Year() < 1950 {
		return time.Time{}, false
	}
	return d, true
}

// fields are the newest stamp's fields and the type its kind names.
func (r stampReading) fields() (string, Fields) {
	out := Fields{}
	put := func(name, text string, ls []ocr.Line, floor float64) {
		if text == "" || len(ls) == 0 {
			return
		}
		box := lineBox(ls[0])
		sum, n := 0.0, 0
		for _, l := range ls {
			box = box.Union(lineBox(l))
			for _, w := range l.Words {
				sum += w.Confidence
				n++
			}
		}
		conf := 0.9 * sum / float64(max(n, 1))
		out[name] = Field{Text: text, Confidence: round3(max(conf, floor)), Coords: r.s.quadOf(box)}
	}
	// putWords is put on the words of line l that print want (the code
	// and the date share their line), on the line when no words do.
	putWords := func(name, text string, l ocr.Line, want string, floor float64) {
		put(name, text, []ocr.Line{l}, floor)
		if f, ok := out[name]; ok {
			if box, ok := wordsBox(l.Words, want); ok {
				f.Coords = r.s.quadOf(box)
				out[name] = f
			}
		}
	}
	// Lines other than the heading and the date line, in order.
	var dateLine *ocr.Line
	var body []ocr.Line
	for i, l := range r.lines {
		t := strings.ToUpper(l.Text)
		if _, ok := stampDate(t); ok && dateLine == nil {
			dateLine = &r.lines[i]
			continue
		}
		if strings.Contains(t, "СНЯТ") || strings.Contains(t, "УЧЕТ") || strings.Contains(t, "РЕГИСТРАЦИОН") ||
			strings.Contains(t, "ЗАРЕГ") || strings.Contains(t, "ГИСТРИРОВ") {
			continue
		}
		body = append(body, l)
	}
	date := r.date.Format("02.01.2006")
	if r.dereg {
		if dateLine != nil {
			put("deregistration_date", date, []ocr.Line{*dateLine}, 0.6)
		}
		put("issuing_authority", authorityText(strings.ToUpper(joinLines(body))), body, 0)
		return RegistrationDeregistered, out
	}
	if dateLine != nil {
		t := strings.ToUpper(dateLine.Text)
		if r.dated {
			putWords("registration_date", date, *dateLine, reStampDate.FindString(strings.ReplaceAll(t, " ", "")), 0.6)
		}
		if m := reStampCode.FindStringSubmatch(t); m != nil {
			putWords("subdivision_code", m[1]+"-"+m[2], *dateLine, m[0], 0.6)
		}
	}
	// The street is the line with the house number; the locality what
	// precedes it.
	street := -1
	for i, l := range body {
		if reStreet.MatchString(strings.ToUpper(strings.TrimSpace(l.Text))) {
			street = i
		}
	}
	var loc, st []ocr.Line
	switch {
	case street >= 0:
		loc, st = body[:street], body[street:street+1]
	case len(body) >= 2:
		loc, st = body[:len(body)-1], body[len(body)-1:]
	default:
		loc = body
	}
	locText := localityText(joinLines(loc))
	stText := streetText(joinLines(st))
	put("locality", locText, loc, 0)
	put("street", stText, st, 0)
	if locText != "" && stText != "" {
		put("address", locText+", "+stText, append(append([]ocr.Line{}, loc...), st...), 0)
	}
	if r.printed {
		return Registration, out
	}
	return RegistrationHandwritten, out
}

// reLocHead and reLocTail are the abbreviations opening and closing a
// locality, read with a hyphen, comma or nothing for their dot.
var (
	reLocHead = regexp.MustCompile(`^(ГОР|ПОС|С|ДЕР)[-.,]?\s+|^(ГОР|ПОС)[-.,]`)
	reLocTail = regexp.MustCompile(`\s(ОБЛ|Р-Н)[.,]?$`)
)

// localityText writes a locality as stamps print it: "ГОР. ТВЕРЬ",
// "ПОС. ЛУГОВОЙ ТЮМЕНСКОЙ ОБЛ.".
func localityText(s string) string {
	s = strings.TrimRight(placeName(strings.ToUpper(s)), " .,-")
	s = reLocHead.ReplaceAllStringFunc(s, func(m string) string {
		return strings.TrimRight(m, "-., ") + ". "
	})
	return reLocTail.ReplaceAllString(s, " $1.")
}

// reStreetKind is a street's kind abbreviated with a dot (ул., пер., ш.,
// наб., пр.; пр-т and б-р take none), read with a comma or no dot.
var reStreetKind = regexp.MustCompile(`^(УЛ|ПЕР|Ш|НАБ|ПР)[.,]?\s+`)

// streetText writes a street line in the form stamps print it: "УЛ.
// ЛЕНИНА, Д. 5, КВ. 3".
func streetText(s string) string {
	s = text(strings.ToUpper(s))
	s = reStreetKind.ReplaceAllString(s, "$1. ")
	m := reStreet.FindStringSubmatch(s)
	if m == nil {
		return s
	}
	out := strings.TrimRight(m[1], " ,.") + ", Д. " + m[2]
	if m[3] != "" {
		out += ", КВ. " + m[3]
	}
	return out
}

func joinLines(ls []ocr.Line) string {
	parts := make([]string, 0, len(ls))
	for _, l := range ls {
		parts = append(parts, strings.TrimSpace(l.Text))
	}
	return strings.Join(parts, " ")
}

func lineBox(l ocr.Line) image.Rectangle { return cornersBox(l.Coords) }

// spreadNumber reads the series and number printed in red along the
// right edge of both pages of a spread (read upwards), each copy three
// times: by Tesseract as red ink on white (the page's patterns gone) and
// as photographed, and by PP-OCR's digits (readDigits). A text read more
// than once is sure; otherwise the most confident reading. ok is false when nothing legible is read.
func (x *Extractor) spreadNumber(ctx context.Context, img image.Image) (Field, bool, error) {
	b := img.Bounds()
	place := x.passport.fromCrop(b)
	lower, ok := x.passport.fields["series_and_number"]
	if !ok {
		return Field{}, false, nil
	}
	upper := lower
	upper[1] -= x.passport.half[1]
	v := passportVisual["series_and_number"]
	var reads []read
	for _, box := range [][4]float64{upper, lower} {
		r, ok := place.rect(box, 3, 1, b)
		if !ok {
			continue
		}
		red := redOnWhite(cvimg.Sub(img, r))
		stretch(red)
		var best read
		for _, turn := range []geom.Rotation{1, 3} {
			up, err := cvimg.Turn(red, turn)
			if err != nil {
				return Field{}, false, fmt.Errorf("extract: turn number: %w", err)
			}
			got, err := x.readRegion(ctx, up, r, v, false)
			if err != nil {
				return Field{}, false, err
			}
			if got.text != "" && got.conf > best.conf {
				best = got
			}
		}
		plain, err := x.readVisual(ctx, img, r, v, true)
		if err != nil {
			return Field{}, false, err
		}
		// PP-OCR reads the digits of a blurred photo where Tesseract
		// reads none.
		digits, _, err := x.readDigits(ctx, img, r, "series_and_number", true)
		if err != nil {
			return Field{}, false, err
		}
		for _, c := range []read{best, plain, digits} {
			if c.text != "" {
				c.rect = r
				reads = append(reads, c)
			}
		}
	}
	if len(reads) == 0 {
		return Field{}, false, nil
	}
	votes := map[string]int{}
	for _, r := range reads {
		votes[r.text]++
	}
	best := reads[0]
	for _, r := range reads[1:] {
		if votes[r.text] > votes[best.text] || (votes[r.text] == votes[best.text] && r.conf > best.conf) {
			best = r
		}
	}
	conf := 0.9 * best.conf
	if votes[best.text] > 1 {
		conf = max(conf, 0.95)
	}
	return Field{Text: best.text, Confidence: round3(conf), Coords: quad(best.rect)}, true, nil
}

// redOnWhite keeps red print (the series and number) dark on white and
// whitens the rest: a pixel is as dark as its red stands above its green
// and blue.
func redOnWhite(img image.Image) *image.Gray {
	b := img.Bounds()
	out := image.NewGray(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			red := float64(r>>8) - float64(max(g, bl)>>8)
			out.Pix[out.PixOffset(x-b.Min.X, y-b.Min.Y)] = uint8(255 - clampF(1.6*(red-15), 0, 255))
		}
	}
	return out
}
