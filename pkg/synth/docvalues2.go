package synth

import (
	"fmt"
	"strings"
)

var eraNames = []struct {
	name  string
	start int
}{{"令和", 2019}, {"平成", 1989}, {"昭和", 1926}}

// jpDate writes a date in the Japanese era calendar.
func jpDate(y, m, dd int) string {
	for _, e := range eraNames {
		if y >= e.start {
			return fmt.Sprintf("%s%2d年%2d月%2d日", e.name, y-e.start+1, m, dd)
		}
	}
	return fmt.Sprintf("%d年%d月%d日", y, m, dd)
}

// computeExtra covers the less common value sources.
func (d *docValues) computeExtra(key string) (string, bool) {
	p := d.p
	switch key {
	case "surname_bi":
		return strings.ToUpper(p.Surname) + " / " + p.SurnameLat, true
	case "given_bi":
		return strings.ToUpper(p.Given) + " / " + p.GivenLat, true
	case "owner_lat":
		return p.SurnameLat + " " + p.GivenLat, true
	case "sex_word":
		if p.Male {
			return "мужской", true
		}
		return "женский", true
	case "jp_birth":
		return jpDate(p.Birth.Year(), int(p.Birth.Month()), p.Birth.Day()) + "生", true
	case "jp_issue":
		return jpDate(p.Issue.Year(), int(p.Issue.Month()), p.Issue.Day()) + " " + d.r.Digits(5), true
	case "jp_expiry":
		e := p.Issue.AddDate(5, 0, 0)
		return jpDate(e.Year(), int(e.Month()), e.Day()) + "まで有効", true
	case "jp_number":
		return "第 " + d.r.Digits(12) + " 号", true
	case "father_name", "husband_name":
		m := newPerson(d.r, d.loc, 0, 0)
		for !m.Male {
			m = newPerson(d.r, d.loc, 0, 0)
		}
		if key == "father_name" {
			m.Surname = strings.TrimSuffix(strings.TrimSuffix(p.Surname, "а"), "")
		}
		return strings.TrimSpace(m.Surname + " " + m.Given + " " + m.Patronymic), true
	case "mother_name", "wife_name":
		f := newPerson(d.r, d.loc, 0, 0)
		for f.Male {
			f = newPerson(d.r, d.loc, 0, 0)
		}
		return strings.TrimSpace(f.Surname + " " + f.Given + " " + f.Patronymic), true
	case "surname_f":
		if p.Male {
			return p.Surname + "а", true
		}
		return p.Surname, true
	case "zags":
		return Pick(d.r, []string{"Отдел ЗАГС Октябрьского района", "Дворец бракосочетания № 1 Управления ЗАГС Москвы", "Отдел записи актов гражданского состояния администрации города", "Комитет по делам ЗАГС Правительства Санкт-Петербурга"}), true
	case "civil_number":
		return Pick(d.r, []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII"}) + "-" + Pick(d.r, []string{"МЮ", "АГ", "РУ", "ЛО", "КБ", "СТ"}) + " № " + d.r.Digits(6), true
	case "inn_kpp":
		inn := d.get("inn_org")
		return inn + "/" + inn[:4] + "01001", true
	case "inn_kpp2":
		inn := INNOrg(d.r)
		return inn + "/" + inn[:4] + "01001", true
	case "buyer_name":
		return Pick(d.r, []string{"ООО «Гранит»", "АО «ТрансСервис»", "ИП " + p.Surname + " " + firstRune(p.Given) + ".", "ООО «Орион-М»"}), true
	case "region":
		return Pick(d.r, []string{"МОСКВА", "МОСКОВСКАЯ ОБЛ.", "СВЕРДЛОВСКАЯ ОБЛ.", "РЕСП. ТАТАРСТАН", "КРАСНОДАРСКИЙ КРАЙ", "НОВОСИБИРСКАЯ ОБЛ."}), true
	case "city":
		return strings.TrimPrefix(strings.ToUpper(p.Place), "ГОР. "), true
	case "ua_authority":
		return Pick(d.r, []string{"Дарницьким РУ ГУ МВС України в м. Києві", "Шевченківським РВ ХМУ УМВС України в Харківській обл.", "Центральним РВ ОМУ ГУМВС України в Одеській обл."}), true
	case "reg_stamp":
		return "ЗАРЕГИСТРИРОВАН\n" + strings.ToUpper(p.Place) + "\n" + strings.ToUpper(ruStreet(d.r)) + "\n" + d.get("subdivision_code") + "  " + dmy(p.Issue.AddDate(0, d.r.IntRange(1, 40), 0)), true
	case "dereg_stamp":
		return "СНЯТ С РЕГИСТРАЦИОННОГО\nУЧЕТА\n" + dmy(p.Issue.AddDate(0, d.r.IntRange(20, 90), 0)) + "\n" + "ОТДЕЛ ПО ВОПРОСАМ МИГРАЦИИ", true
	case "marriage_stamp":
		return "ЗАРЕГИСТРИРОВАН БРАК\nс гр. " + d.get("wife_name") + "\n" + dmy(p.Issue.AddDate(0, d.r.IntRange(1, 50), 0)) + "\n" + d.get("zags"), true
	case "military_stamp":
		return "ВОЕННООБЯЗАННЫЙ\nВОЕННЫЙ КОМИССАРИАТ\n" + strings.ToUpper(strings.TrimPrefix(p.Place, "гор. ")) + "\n" + dmy(p.Issue.AddDate(0, d.r.IntRange(1, 30), 0)), true
	case "prev_stamp":
		return "РАНЕЕ ВЫДАННЫЙ ПАСПОРТ\n" + pad2(d.r.Intn(99)) + " " + pad2(d.r.Intn(99)) + " " + d.r.Digits(6) + "\n" + dmy(p.Issue.AddDate(-5, 0, 0)), true
	case "child_stamp":
		return "ДЕТИ\n" + d.get("mother_name") + "\n" + dmy(p.Issue.AddDate(d.r.IntRange(1, 10), 0, 0)), true
	case "gibdd_stamp":
		return "РЭО ГИБДД\n" + d.get("plate") + "\n" + dmy(p.Issue.AddDate(0, d.r.IntRange(1, 40), 0)), true
	}
	return "", false
}
