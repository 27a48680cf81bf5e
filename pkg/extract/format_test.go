package extract

import (
	"testing"
	"time"

	"docsuite/pkg/ocr"
)

// The visual fields' normalisation: what Tesseract returns becomes the
// seed's format, or nothing when it cannot be that field.
func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format func(string) string
		in     string
		want   string
	}{
		{"date", date, "13.01.1958", "13.01.1958"},
		{"date without dots", date, "1301 1958", "13.01.1958"},
		{"date garbage", date, "13.0", ""},
		{"date of a month 42", date, "12.42.1976", ""},
		{"date of a month 18", date, "29.18.2006", ""},
		{"date of 31 February", date, "31.02.1980", ""},
		{"date of day 00", date, "00.05.1980", ""},
		{"date of a leap day", date, "29.02.1980", "29.02.1980"},
		{"date of 29 February not leap", date, "29.02.1981", ""},
		{"date before 1900", date, "12.05.1082", ""},
		{"code", code, "865-913", "865-913"},
		{"code without hyphen", code, "865913", "865-913"},
		{"code too short", code, "86-913", ""},
		{"number", number, "5213 034851", "5213 034851"},
		{"number in pieces", number, "52 13 034851", "5213 034851"},
		{"sex male", sexText, "МУЖ.", "МУЖ."},
		{"sex female without dot", sexText, "ЖЕН", "ЖЕН."},
		{"sex unreadable", sexText, "Ж", ""},
		{"name", name, " ПЕТРОВА- ", "ПЕТРОВА"},
		{"name of one letter", name, "Я", ""},
		{"name beside a stray letter", name, "Г ЮДИНА", "ЮДИНА"},
		{"double name", name, "АННА-МАРИЯ", "АННА-МАРИЯ"},
		{"name ending in a short i", name, "АНДРЕИ", "АНДРЕЙ"},
		{"name ending in a short i after и", name, "ЕВГЕНИИ", "ЕВГЕНИЙ"},
		{"two names, one with a short i", name, "НИКОЛАИ ПЕТРОВ", "НИКОЛАЙ ПЕТРОВ"},
		{"name with и inside", name, "РАИСА", "РАИСА"},
		{"name ending in и after a consonant", name, "НАТАЛИ", "НАТАЛИ"},
		{"place comma", placeName, "ГОР, УФА", "ГОР. УФА"},
		{"place Т for Г", placeName, "ТОР. ТВЕРЬ", "ГОР. ТВЕРЬ"},
		{"place untouched", placeName, "ГОР. РОСТОВ-НА-ДОНУ", "ГОР. РОСТОВ-НА-ДОНУ"},
		{"place village", placeName, "С, ИВАНОВКА", "С. ИВАНОВКА"},
		{"place adjective with a short i", placeName, "ГОР. НИЖНИИ НОВГОРОД", "ГОР. НИЖНИЙ НОВГОРОД"},
		{"place region with a short i", placeName, "С. УГРА КАЛУЖСКОИ ОБЛ.", "С. УГРА КАЛУЖСКОЙ ОБЛ."},
		{"authority with a short i", authorityText, "ТП № 2 ОУФМС РОССИИ ПО НИЖНИИ НОВГОРОД", "ТП № 2 ОУФМС РОССИИ ПО НИЖНИЙ НОВГОРОД"},
		{"place genitive in ии", placeName, "ГОР. ЕРЕВАН РЕСПУБЛИКИ АРМЕНИИ", "ГОР. ЕРЕВАН РЕСПУБЛИКИ АРМЕНИИ"},
		{"authority settlement with a comma", authorityText, "ТП № 2 ОУФМС РОССИИ ПО ПОС, ЛУГОВОЙ ТЮМЕНСКОЙ ОБЛ.", "ТП № 2 ОУФМС РОССИИ ПО ПОС. ЛУГОВОЙ ТЮМЕНСКОЙ ОБЛ."},
		{"authority region without its dot", authorityText, "ТП № 2 ОУФМС РОССИИ ПО С. НИКОЛЬСКОЕ КАЛУЖСКОЙ ОБЛ", "ТП № 2 ОУФМС РОССИИ ПО С. НИКОЛЬСКОЕ КАЛУЖСКОЙ ОБЛ."},
		{"place town without its dot", placeName, "ГОР ОМСК", "ГОР. ОМСК"},
		{"preposition с kept", authorityText, "ОТДЕЛОМ С ПАСПОРТНЫМ СТОЛОМ", "ОТДЕЛОМ С ПАСПОРТНЫМ СТОЛОМ"},
		{"name read with a stop after it", name, "ПЕТРОВА.", "ПЕТРОВА"},
		{"name read with a comma and a digit", name, "ЮРЬЕВНА, 1", "ЮРЬЕВНА"},
		{"names parted by a comma", name, "АННА,МАРИЯ", "АННА МАРИЯ"},
		{"place read with a stop after it", placeName, "ГОР. ВОЛГОГРАД.", "ГОР. ВОЛГОГРАД"},
		{"place read with a comma after it", placeName, "ГОР. МОСКВА,", "ГОР. МОСКВА"},
		{"place closed by a region keeps its dot", placeName, "С. УГРА КАЛУЖСКОЙ ОБЛ.", "С. УГРА КАЛУЖСКОЙ ОБЛ."},
		{"place closed by a republic keeps its dot", placeName, "ГОР. КАЗАНЬ РЕСП.", "ГОР. КАЗАНЬ РЕСП."},
		{"authority read with a stop after it", authorityText, "ОТДЕЛ ПО ВОПРОСАМ МИГРАЦИИ.", "ОТДЕЛ ПО ВОПРОСАМ МИГРАЦИИ"},
		{"place of digits only", placeName, "20 02 2012", ""},
		{"place of dates", placeName, "11.02.2030 20 11.02.2030", ""},
		{"authority of specks", authorityText, "Е Е ИИ", ""},
		{"place of a short name", placeName, "ГОР. УФА", "ГОР. УФА"},
		{"authority of initials", authorityText, "МВД ПО Р. 2", "МВД ПО Р. 2"},
	} {
		if got := tc.format(tc.in); got != tc.want {
			t.Errorf("%s: %q gives %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// Zone names that differ from the visual ones only in look-alikes (8 for
// B, 0 for O) are the same name; others are not.
func TestLookAlike(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"8ROSLAV", "BROSLAV", true},
		{"F2DOROV", "F2OOROV", true},
		{"PETROV", "PETROV", true},
		{"PETROV", "PETROVA", false},
		{"IVANOV", "IVANOB", false},
		{"", "", false},
	} {
		if got := lookAlike(tc.a, tc.b); got != tc.want {
			t.Errorf("lookAlike(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// Noise read as letters repeats one letter; no Russian word holds a
// letter three times in a row.
func TestTripled(t *testing.T) {
	for in, want := range map[string]bool{
		"ННННИННН": true, "ОТДЕЛОМ": false, "ВВЕДЕННЫЙ": false, "ААА": true, "№": false, "": false,
	} {
		if got := tripled(in); got != want {
			t.Errorf("tripled(%q) = %v, want %v", in, got, want)
		}
	}
}

// A deregistration stamp's authority is written as an authority: the
// stop read after its last word is no part of it.
func TestDeregistrationAuthority(t *testing.T) {
	line := func(text string, y int) ocr.Line {
		c := [4][2]int{{10, y}, {300, y}, {10, y + 20}, {300, y + 20}}
		return ocr.Line{Text: text, Confidence: 0.9, Coords: c, Words: []ocr.Word{{Text: text, Confidence: 0.9, Coords: c}}}
	}
	for _, tc := range []struct{ body, want string }{
		{"ОТДЕЛ ПО ВОПРОСАМ МИГРАЦИИ.", "ОТДЕЛ ПО ВОПРОСАМ МИГРАЦИИ"},
		{"ОТДЕЛ ПО ВОПРОСАМ МИГРАЦИИ", "ОТДЕЛ ПО ВОПРОСАМ МИГРАЦИИ"},
		{"ОУФМС РОССИИ ПО КАЛУЖСКОЙ ОБЛ.", "ОУФМС РОССИИ ПО КАЛУЖСКОЙ ОБЛ."},
	} {
		r := stampReading{s: stamp{w: 400, h: 200, center: [2]float64{200, 100}}, dereg: true, dated: true,
			date:  time.Date(2020, 12, 30, 0, 0, 0, 0, time.UTC),
			lines: []ocr.Line{line("СНЯТ С РЕГИСТРАЦИОННОГО УЧЕТА", 10), line("30.12.2020", 40), line(tc.body, 70)}}
		typ, f := r.fields()
		if typ != RegistrationDeregistered || f["issuing_authority"].Text != tc.want {
			t.Errorf("%q: %s issuing_authority %q, want %s %q", tc.body, typ, f["issuing_authority"].Text, RegistrationDeregistered, tc.want)
		}
	}
}
