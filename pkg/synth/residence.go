package synth

import "strings"

// The stamps of the passport's residence pages (passport_registration and
// its handwritten and deregistered kinds). Each stamp element draws its
// own text; the stamps of a page are dated in the order the template
// lists them, so the last one drawn is the newest, and the document's
// fields are the truth of that newest stamp (the service reads only it).

// residenceKeys are the truth fields of a residence page's newest stamp.
func residenceKeys() []string {
	return []string{"registration_date", "locality", "street", "address", "subdivision_code", "issuing_authority", "deregistration_date"}
}

// residenceStamp is one stamp's printed text and its truth fields.
type residenceStamp struct {
	text   string
	fields map[string]string
}

// residenceStamp draws the next stamp of a residence page: gen is
// reg_stamp (a registration: place, street, the registering office's
// subdivision code and the date) or dereg_stamp (a deregistration: the
// date and the office). ok is false for other generators. The issuing
// authority of a registration is not printed on the stamp: its truth is
// the office the printed code names in the factory's directory.
func (d *docValues) residenceStamp(gen string) (residenceStamp, bool) {
	if d.clock.IsZero() {
		d.clock = d.p.Issue
	}
	switch gen {
	case "reg_stamp":
		d.advance(d.r.IntRange(1, 40), d.r.Intn(28))
		place := Pick(d.r, names["ru"].places)
		office, _ := officeOf(place, d.r.Intn(len(authorityForms())))
		loc, street := strings.ToUpper(place), strings.ToUpper(ruStreet(d.r))
		date := dmy(d.clock)
		return residenceStamp{
			text: "ЗАРЕГИСТРИРОВАН\n" + loc + "\n" + street + "\n" + office.Code + "  " + date,
			fields: map[string]string{"registration_date": date, "locality": loc, "street": street,
				"address": loc + ", " + street, "subdivision_code": office.Code, "issuing_authority": office.Authority},
		}, true
	case "dereg_stamp":
		d.advance(d.r.IntRange(1, 30), d.r.Intn(28))
		const office = "ОТДЕЛ ПО ВОПРОСАМ МИГРАЦИИ"
		date := dmy(d.clock)
		return residenceStamp{
			text:   "СНЯТ С РЕГИСТРАЦИОННОГО\nУЧЕТА\n" + date + "\n" + office,
			fields: map[string]string{"deregistration_date": date, "issuing_authority": office},
		}, true
	}
	return residenceStamp{}, false
}

// advance moves the stamps' clock on by months and days, but by no more
// than an even share of the time from the passport's issue to the
// factory's today (refDate) per stamp the template can draw: a page's
// stamps stay in order, each on a day of its own, and none is dated in the
// future (the extraction leaves such dates out). The random draws are the
// same either way, so the rest of the page is unchanged.
func (d *docValues) advance(months, days int) {
	if d.stampStep == 0 {
		n := 0
		for _, e := range d.t.Elements {
			if e.Gen == "reg_stamp" || e.Gen == "dereg_stamp" {
				n++
			}
		}
		d.stampStep = max(1, int(refDate.Sub(d.clock).Hours()/24)/max(n, 1))
	}
	next := d.clock.AddDate(0, months, days)
	if most := d.clock.AddDate(0, 0, d.stampStep); next.After(most) {
		next = most
	}
	if next.After(refDate) {
		next = refDate
	}
	d.clock = next
}

// recordNewest makes s the truth of doc: the fields of earlier stamps go.
func recordNewest(doc *Doc, s residenceStamp, box [4]float64, size [2]float64) {
	for _, k := range residenceKeys() {
		delete(doc.Fields, k)
		delete(doc.Boxes, k)
	}
	b := [4]float64{box[0] / size[0], box[1] / size[1], (box[0] + box[2]) / size[0], (box[1] + box[3]) / size[1]}
	for k, v := range s.fields {
		doc.Fields[k] = v
		doc.Boxes[k] = b
	}
}
