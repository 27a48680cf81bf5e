package synth

import (
	"fmt"
	"strings"
	"time"
)

// refDate is the fixed "today" of the factory, so output never depends on
// the clock.
var refDate = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

// Person is the holder of a generated document.
type Person struct {
	Surname, Given, Patronymic          string
	SurnameLat, GivenLat, PatronymicLat string
	Male                                bool
	Birth, Issue, Expiry                time.Time
	Place, PlaceLat                     string
}

func splitName(s, loc string) (native, lat string) {
	if i := strings.IndexByte(s, '|'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return s, Translit(s, loc)
}

// newPerson draws a holder for locale loc with documents issued within
// the years [y0, y1] (zero means any).
func newPerson(r *Rand, loc string, y0, y1 int) Person {
	ln, ok := names[loc]
	if !ok {
		ln = names["ru"]
		loc = "ru"
	}
	p := Person{Male: r.Bool(0.5)}
	sur, giv, pat := ln.surF, ln.givF, ln.patF
	if p.Male {
		sur, giv, pat = ln.surM, ln.givM, ln.patM
	}
	p.Surname, p.SurnameLat = splitName(Pick(r, sur), loc)
	p.Given, p.GivenLat = splitName(Pick(r, giv), loc)
	if len(pat) > 0 {
		p.Patronymic, p.PatronymicLat = splitName(Pick(r, pat), loc)
	}
	p.Place, p.PlaceLat = splitName(Pick(r, ln.places), loc)
	if y0 == 0 {
		y0, y1 = 1997, 2024
	}
	if y1 == 0 || y1 > 2025 {
		y1 = 2025
	}
	issueYear := r.IntRange(y0, y1)
	p.Issue = time.Date(issueYear, time.Month(1+r.Intn(12)), 1+r.Intn(28), 0, 0, 0, 0, time.UTC)
	if p.Issue.After(refDate) {
		p.Issue = refDate.AddDate(0, -r.IntRange(1, 5), 0)
	}
	age := r.IntRange(16, 60)
	p.Birth = p.Issue.AddDate(-age, -r.Intn(12), -r.Intn(28))
	p.Expiry = p.Issue.AddDate(10, 0, -1)
	return p
}

var monthsRu = []string{"ЯНВ", "ФЕВ", "МАР", "АПР", "МАЯ", "ИЮН", "ИЮЛ", "АВГ", "СЕН", "ОКТ", "НОЯ", "ДЕК"}
var monthsEn = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}
var monthsRuLong = []string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"}

func dmy(t time.Time) string      { return t.Format("02.01.2006") }
func yymmdd(t time.Time) string   { return t.Format("060102") }
func slashDMY(t time.Time) string { return t.Format("02/01/2006") }
func monDMY(t time.Time) string {
	return fmt.Sprintf("%02d %s %d", t.Day(), monthsEn[t.Month()-1], t.Year())
}
func ruMonDMY(t time.Time) string {
	return fmt.Sprintf("%02d %s/%s %02d", t.Day(), monthsRu[t.Month()-1], monthsEn[t.Month()-1], t.Year()%100)
}

// ruWordsDate writes a date as the SNILS card prints it: "01 января 1970 года".
func ruWordsDate(t time.Time) string {
	return fmt.Sprintf("%02d %s %d года", t.Day(), monthsRuLong[t.Month()-1], t.Year())
}
func ruLongDate(t time.Time) string {
	return fmt.Sprintf("«%02d» %s %d г.", t.Day(), monthsRuLong[t.Month()-1], t.Year())
}

// pattern expands d (digit), z (digit 1-9), l (Latin capital), c (Cyrillic
// plate letter); a backslash keeps the next character.
func pattern(r *Rand, pat string) string {
	const lat = "ABCDEFGHJKLMNPRSTUVWXYZ"
	cyr := []rune("АВЕКМНОРСТУХ")
	var b strings.Builder
	esc := false
	for _, ch := range pat {
		if esc {
			b.WriteRune(ch)
			esc = false
			continue
		}
		switch ch {
		case '\\':
			esc = true
		case 'd':
			b.WriteByte(byte('0' + r.Intn(10)))
		case 'z':
			b.WriteByte(byte('1' + r.Intn(9)))
		case 'l':
			b.WriteByte(lat[r.Intn(len(lat))])
		case 'c':
			b.WriteRune(cyr[r.Intn(len(cyr))])
		default:
			b.WriteRune(ch)
		}
	}
	return b.String()
}
