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
		d.clock = d.clock.AddDate(0, d.r.IntRange(1, 40), d.r.Intn(28))
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
		d.clock = d.clock.AddDate(0, d.r.IntRange(1, 30), d.r.Intn(28))
		const office = "ОТДЕЛ ПО ВОПРОСАМ МИГРАЦИИ"
		date := dmy(d.clock)
		return residenceStamp{
			text:   "СНЯТ С РЕГИСТРАЦИОННОГО\nУЧЕТА\n" + date + "\n" + office,
			fields: map[string]string{"deregistration_date": date, "issuing_authority": office},
		}, true
	}
	return residenceStamp{}, false
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
