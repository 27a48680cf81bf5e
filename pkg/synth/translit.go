package synth

import (
	"strings"
	"unicode"

	"docsuite/pkg/mrz"
)

// icaoCyr is the ICAO 9303 / Russian 2013 transliteration of Cyrillic
// used in the visual zone and MRZ of travel documents.
var icaoCyr = map[rune]string{
	'А': "A", 'Б': "B", 'В': "V", 'Г': "G", 'Д': "D", 'Е': "E", 'Ё': "E", 'Ж': "ZH",
	'З': "Z", 'И': "I", 'Й': "I", 'К': "K", 'Л': "L", 'М': "M", 'Н': "N", 'О': "O",
	'П': "P", 'Р': "R", 'С': "S", 'Т': "T", 'У': "U", 'Ф': "F", 'Х': "KH", 'Ц': "TS",
	'Ч': "CH", 'Ш': "SH", 'Щ': "SHCH", 'Ъ': "IE", 'Ы': "Y", 'Ь': "", 'Э': "E", 'Ю': "IU",
	'Я': "IA", 'Ә': "A", 'Ғ': "G", 'Қ': "Q", 'Ң': "N", 'Ө': "O", 'Ұ': "U", 'Ү': "U",
	'Һ': "H", 'І': "I", 'Є': "IE", 'Ї': "I", 'Ґ': "G", 'Ҳ': "H", 'Ҷ': "J", 'Ӣ': "I",
	'Ӯ': "U", 'Ў': "U",
}

// ukrOverrides are the Ukrainian national transliteration differences.
var ukrOverrides = map[rune]string{'И': "Y", 'Г': "H", 'Х': "KH", 'Й': "I", 'Є': "IE", 'Ю': "IU", 'Я': "IA"}

// latinFold strips diacritics of Latin-script languages the factory uses.
var latinFold = map[rune]string{
	'Ə': "A", 'Ş': "S", 'Ç': "C", 'Ğ': "G", 'İ': "I", 'I': "I", 'Ö': "O", 'Ü': "U",
	'Ă': "A", 'Â': "A", 'Î': "I", 'Ș': "S", 'Ț': "T", 'Ñ': "N", 'É': "E", 'Ā': "A",
	'ʻ': "", '\'': "", '’': "",
}

// Translit returns the upper-case Latin form of a name for locale loc.
func Translit(s, loc string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		if loc == "ua" {
			if v, ok := ukrOverrides[r]; ok {
				b.WriteString(v)
				continue
			}
		}
		if v, ok := icaoCyr[r]; ok {
			b.WriteString(v)
			continue
		}
		if v, ok := latinFold[r]; ok {
			b.WriteString(v)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mrzName maps a Latin name to MRZ characters: letters kept, every other
// character becomes the filler '<'.
func mrzName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case unicode.IsSpace(r) || r == '-':
			b.WriteByte('<')
		}
	}
	return b.String()
}

// rusMRZName maps a Cyrillic name through the internal passport table
// (mrz.EncodeRusName).
func rusMRZName(s string) string { return mrz.EncodeRusName(s) }
