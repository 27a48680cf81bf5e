package synth

import (
	"fmt"
	"strings"
	"time"
)

// docValues computes, lazily and once, every value a document shows, so
// that the same value (a name, a number) is consistent between the visual
// zone, the MRZ and the recorded fields.
type docValues struct {
	r    *Rand
	t    *Template
	p    Person
	loc  string
	memo map[string]string
	// clock is the date of the last residence stamp drawn.
	clock time.Time
	// stampStep is the most days between two residence stamps (advance).
	stampStep int
}

func newDocValues(r *Rand, t *Template) *docValues {
	loc := t.Locale
	if loc == "" {
		loc = "ru"
	}
	return &docValues{r: r, t: t, loc: loc, p: newPerson(r, loc, t.Years[0], t.Years[1]), memo: map[string]string{}}
}

// get returns the value of a source key.
func (d *docValues) get(key string) string {
	if v, ok := d.memo[key]; ok {
		return v
	}
	v := d.compute(key)
	d.memo[key] = v
	return v
}

func (d *docValues) compute(key string) string {
	if v, ok := d.t.Values[key]; ok {
		return v
	}
	if pat, ok := d.t.Values[key+"_pat"]; ok {
		return pattern(d.r, pat)
	}
	if list, ok := d.t.Values[key+"_list"]; ok {
		return Pick(d.r, strings.Split(list, "|"))
	}
	switch {
	case strings.HasPrefix(key, "pat:"):
		return pattern(d.r, key[4:])
	case strings.HasPrefix(key, "lit:"):
		return key[4:]
	case strings.HasPrefix(key, "list:"):
		return Pick(d.r, strings.Split(key[5:], "|"))
	case strings.HasPrefix(key, "para:"):
		return filler(d.r, key[5:], 12)
	case strings.HasPrefix(key, "words:"):
		return filler(d.r, key[6:], 3)
	}
	p := d.p
	switch key {
	case "surname":
		return strings.ToUpper(p.Surname)
	case "first_name":
		return strings.ToUpper(p.Given)
	case "other_names":
		return strings.ToUpper(p.Patronymic)
	case "surname_cap":
		return p.Surname
	case "first_name_cap":
		return p.Given
	case "other_names_cap":
		return p.Patronymic
	case "surname_lat":
		return p.SurnameLat
	case "first_name_lat":
		return p.GivenLat
	case "other_names_lat":
		return p.PatronymicLat
	case "given_names":
		return strings.TrimSpace(strings.ToUpper(p.Given + " " + p.Patronymic))
	case "given_names_lat":
		return strings.TrimSpace(p.GivenLat + " " + p.PatronymicLat)
	case "full_name":
		return strings.TrimSpace(strings.ToUpper(p.Surname + " " + p.Given + " " + p.Patronymic))
	case "full_name_cap":
		return strings.TrimSpace(p.Surname + " " + p.Given + " " + p.Patronymic)
	case "full_name_lat":
		return strings.TrimSpace(p.SurnameLat + " " + p.GivenLat)
	case "initials":
		return p.Surname + " " + firstRune(p.Given) + "." + firstRune(p.Patronymic) + "."
	case "sex_ru":
		return map[bool]string{true: "МУЖ.", false: "ЖЕН."}[p.Male]
	case "sex":
		return map[bool]string{true: "M", false: "F"}[p.Male]
	case "sex_ru_bi":
		return map[bool]string{true: "МУЖ/M", false: "ЖЕН/F"}[p.Male]
	case "sex_bi":
		return sexBi(d.loc, p.Male)
	case "date_of_birth":
		return dmy(p.Birth)
	case "date_of_issue":
		return dmy(p.Issue)
	case "date_of_expiry":
		return dmy(p.Expiry)
	case "date_of_birth_slash":
		return slashDMY(p.Birth)
	case "date_of_issue_slash":
		return slashDMY(p.Issue)
	case "date_of_expiry_slash":
		return slashDMY(p.Expiry)
	case "date_of_birth_mon":
		return monDMY(p.Birth)
	case "date_of_issue_mon":
		return monDMY(p.Issue)
	case "date_of_expiry_mon":
		return monDMY(p.Expiry)
	case "date_of_birth_rumon":
		return ruMonDMY(p.Birth)
	case "date_of_issue_rumon":
		return ruMonDMY(p.Issue)
	case "date_of_expiry_rumon":
		return ruMonDMY(p.Expiry)
	case "date_of_issue_long":
		return ruLongDate(p.Issue)
	case "date_of_birth_words":
		return ruWordsDate(p.Birth)
	case "date_of_issue_words":
		return ruWordsDate(p.Issue)
	case "date_recent":
		return dmy(p.Issue.AddDate(0, d.r.IntRange(1, 60), d.r.Intn(28)))
	case "place_of_birth":
		return strings.ToUpper(p.Place)
	case "place_of_birth_lat":
		return p.PlaceLat
	case "series_and_number":
		return d.get("series") + " " + d.get("number")
	case "series":
		return pad2(1+d.r.Intn(98)) + pad2(p.Issue.Year()%100)
	case "series_spaced":
		s := d.get("series")
		return s[:2] + " " + s[2:]
	case "number":
		return d.r.Digits(6)
	case "subdivision_code":
		// The same two draws as ever: a Russian place's office comes from
		// the factory's directory, so the code names the authority printed.
		n, m := d.r.Intn(920), d.r.Intn(1000)
		if o, ok := officeOf(p.Place, n*1000+m); ok {
			return o.Code
		}
		return fmt.Sprintf("%03d-%03d", 1+n, m)
	case "issuing_authority":
		if o, ok := officeByCode(d.get("subdivision_code")); ok {
			d.r.Intn(len(authorityForms())) // the draw of the wording, kept
			return o.Authority
		}
		return ruAuthority(d.r, strings.ToUpper(p.Place))
	case "doc_number":
		return pattern(d.r, "ldddddddd")
	case "personal_number":
		return d.r.Digits(14)
	case "snils":
		return SNILS(d.r)
	case "inn_person", "inn":
		return INNPerson(d.r)
	case "inn_org":
		return INNOrg(d.r)
	case "ogrn":
		return OGRN(d.r)
	case "ogrnip":
		return OGRNIP(d.r)
	case "kpp":
		return d.get("inn_org")[:4] + "01001"
	case "card_number":
		n := Luhn(d.r, Pick(d.r, []string{"4", "51", "55", "2200", "2202", "2204"}), 16)
		return n[0:4] + " " + n[4:8] + " " + n[8:12] + " " + n[12:16]
	case "card_expiry":
		return fmt.Sprintf("%02d/%02d", 1+d.r.Intn(12), 26+d.r.Intn(6))
	case "card_holder":
		return p.GivenLat + " " + p.SurnameLat
	case "address":
		return ruAddress(d.r, p.Place)
	case "street":
		return ruStreet(d.r)
	case "vin":
		return pattern(d.r, "lllllddddddlddddd")
	case "plate":
		return pattern(d.r, "cdddcc ") + fmt.Sprint(Pick(d.r, []int{77, 97, 177, 199, 50, 78, 98, 178, 66, 16, 54, 23, 161}))
	case "car_make":
		return Pick(d.r, []string{"LADA GRANTA", "LADA VESTA", "KIA RIO", "HYUNDAI SOLARIS", "TOYOTA CAMRY", "VOLKSWAGEN POLO", "RENAULT LOGAN", "SKODA OCTAVIA", "ГАЗ 3302", "УАЗ ПАТРИОТ", "CHERY TIGGO 7", "HAVAL JOLION"})
	case "car_color":
		return Pick(d.r, []string{"БЕЛЫЙ", "ЧЕРНЫЙ", "СЕРЫЙ", "СЕРЕБРИСТЫЙ", "СИНИЙ", "КРАСНЫЙ", "ЗЕЛЕНЫЙ", "БЕЖЕВЫЙ"})
	case "car_year":
		return fmt.Sprint(d.r.IntRange(2003, 2024))
	case "org_name":
		return Pick(d.r, []string{"ООО «Ромашка»", "АО «Северсталь-Сервис»", "ООО «ТехноСтрой»", "ООО «Вектор»", "ПАО «Уралмаш»", "ООО «Альфа-Логистик»", "ЗАО «Меридиан»", "ООО «СибТрансКом»"})
	case "amount":
		return fmt.Sprintf("%d %03d,%02d", d.r.IntRange(1, 900), d.r.Intn(1000), d.r.Intn(100))
	case "phone":
		return pattern(d.r, "+7 (9dd) ddd-dd-dd")
	}
	if v, ok := d.computeExtra(key); ok {
		return v
	}
	return key
}

func firstRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return ""
}

func sexBi(loc string, male bool) string {
	m := map[string][2]string{
		"kz": {"ЕР/M", "ӘЙЕЛ/F"}, "kg": {"Э/M", "А/F"}, "ua": {"Ч/M", "Ж/F"}, "by": {"М/M", "Ж/F"},
		"tj": {"М/M", "З/F"}, "az": {"K/M", "Q/F"}, "tr": {"E/M", "K/F"}, "am": {"Ա/M", "Ի/F"},
		"uz": {"ERKAK/M", "AYOL/F"}, "ru": {"МУЖ/M", "ЖЕН/F"}, "md": {"M", "F"},
	}
	v, ok := m[loc]
	if !ok {
		v = [2]string{"M", "F"}
	}
	if male {
		return v[0]
	}
	return v[1]
}

func ruAuthority(r *Rand, place string) string {
	return authorityName(Pick(r, authorityForms()), place)
}

func ruStreet(r *Rand) string {
	return fmt.Sprintf("%s %s, д. %d, кв. %d", Pick(r, []string{"ул.", "пр-т", "пер.", "ш."}),
		Pick(r, []string{"Ленина", "Мира", "Садовая", "Гагарина", "Советская", "Лесная", "Набережная", "Пушкина", "Молодёжная", "Заводская"}),
		r.IntRange(1, 150), r.IntRange(1, 320))
}

func ruAddress(r *Rand, place string) string {
	return strings.ToUpper(place) + ", " + ruStreet(r)
}
