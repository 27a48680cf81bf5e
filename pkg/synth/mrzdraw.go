package synth

import (
	"image/color"
	"math"
	"strings"
)

// mrzLines builds the lines of the MRZ kind style from document values.
func mrzLines(style, code string, t *Template, v *docValues) []string {
	p := v.p
	sex := byte('M')
	if !p.Male {
		sex = 'F'
	}
	country := t.Country
	if country == "" {
		country = "RUS"
	}
	opt := ""
	if _, ok := t.Values["personal_number_pat"]; ok {
		opt = v.get("personal_number")
	}
	num := strings.ReplaceAll(v.get("doc_number"), " ", "")
	in := MRZInput{DocCode: code, Issuer: country, Surname: mrzName(p.SurnameLat),
		Given: mrzName(strings.TrimSpace(p.GivenLat + " " + p.PatronymicLat)), Number: num,
		Nationality: country, Birth: yymmdd(p.Birth), Sex: sex, Expiry: yymmdd(p.Expiry), Optional: mrzName(opt)}
	switch style {
	case "rus":
		l, err := RusInternal(p.Surname, p.Given, p.Patronymic, v.get("series"), v.get("number"), yymmdd(p.Birth), sex, yymmdd(p.Issue), v.get("subdivision_code"))
		if err != nil {
			return nil
		}
		return l[:]
	case "td1":
		if in.DocCode == "" {
			in.DocCode = "ID"
		}
		l := TD1(in)
		return l[:]
	case "td2":
		if in.DocCode == "" {
			in.DocCode = "I<"
		}
		l := TD2(in)
		return l[:]
	default:
		if in.DocCode == "" {
			in.DocCode = "P<"
		}
		l := TD3(in)
		return l[:]
	}
}

// mrz draws the machine-readable zone and records mrz_1.. fields.
func (c *drawCtx) mrz(e *Element, v *docValues, doc *Doc) {
	lines := mrzLines(e.Style, e.Text, c.t, v)
	if len(lines) == 0 {
		return
	}
	x, y, w, h := c.px(e.Box)
	lh := h / float64(len(lines))
	col := colorOr(e.Color, color.RGBA{20, 20, 25, 255})
	for i, ln := range lines {
		st := textStyle{font: "ocr", size: math.Min(lh*0.95, w/float64(len(ln))*1.55), col: col}
		tw := c.p.measure(ln, st)
		if tw > 0 {
			st.squeeze = w / tw
		}
		c.p.drawText(c.dst, ln, x, y+lh*float64(i)+lh*0.78, st)
		if doc != nil {
			name := "mrz_" + string(rune('1'+i))
			doc.Fields[name] = ln
			W, H := c.t.SizeMM[0], c.t.SizeMM[1]
			b := e.Box
			doc.Boxes[name] = [4]float64{b[0] / W, (b[1] + b[3]*float64(i)/float64(len(lines))) / H, (b[0] + b[2]) / W, (b[1] + b[3]*float64(i+1)/float64(len(lines))) / H}
		}
	}
}
