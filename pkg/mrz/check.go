// Package mrz reads machine-readable zones (ICAO 9303) of travel and
// identity documents: the check digits (weights 7, 3, 1), the three
// layouts TD1 (3×30), TD2 (2×36) and TD3 (2×44), the fields they carry,
// and the Russian internal passport's MRZ (a TD3-shaped "PNRUS" zone whose
// names go through the MVD's one-letter Cyrillic table and whose optional
// data hold the series' last digit, the issue date and the subdivision
// code). Parse works on text lines; Reader finds and reads the zone on an
// upright document image with the PP-OCRv4 models of pkg/ppocr.
package mrz

// Filler is the MRZ filler character.
const Filler = '<'

// value is the ICAO 9303 character value: digits as themselves, A..Z as
// 10..35, the filler (and anything else) as 0.
func value(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 0
}

// Check computes the ICAO 9303 check digit of s: the sum of the character
// values weighted 7, 3, 1, 7, 3, 1, ... modulo 10, as an ASCII digit.
func Check(s string) byte {
	w := [3]int{7, 3, 1}
	sum := 0
	for i := 0; i < len(s); i++ {
		sum += value(s[i]) * w[i%3]
	}
	return byte('0' + sum%10)
}

// IsMRZChar reports whether r may appear in a machine-readable zone:
// upper-case Latin letters, digits and the filler.
func IsMRZChar(r rune) bool {
	return r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == Filler
}
