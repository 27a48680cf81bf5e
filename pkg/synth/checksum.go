package synth

import (
	"strconv"

	"docsuite/pkg/mrz"
)

// MRZCheck computes the ICAO 9303 check digit (weights 7, 3, 1); see
// mrz.Check.
func MRZCheck(s string) byte { return mrz.Check(s) }

// SNILS returns a valid insurance number "ddd-ddd-ddd dd" from 9 digits.
func SNILS(r *Rand) string {
	for {
		d := r.Digits(9)
		if d <= "001001998" {
			continue
		}
		sum := 0
		for i := 0; i < 9; i++ {
			sum += int(d[i]-'0') * (9 - i)
		}
		var cs int
		switch {
		case sum < 100:
			cs = sum
		case sum == 100 || sum == 101:
			cs = 0
		default:
			cs = sum % 101
			if cs == 100 {
				cs = 0
			}
		}
		return d[0:3] + "-" + d[3:6] + "-" + d[6:9] + " " + pad2(cs)
	}
}

// ValidSNILS checks the control number of "ddd-ddd-ddd dd".
func ValidSNILS(s string) bool {
	if len(s) != 14 {
		return false
	}
	d := s[0:3] + s[4:7] + s[8:11]
	sum := 0
	for i := 0; i < 9; i++ {
		sum += int(d[i]-'0') * (9 - i)
	}
	cs := sum % 101
	if cs == 100 {
		cs = 0
	}
	got, err := strconv.Atoi(s[12:14])
	return err == nil && got == cs
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func innDigit(d string, w []int) byte {
	sum := 0
	for i, k := range w {
		sum += int(d[i]-'0') * k
	}
	return byte('0' + sum%11%10)
}

// INNPerson returns a valid 12-digit personal taxpayer number.
func INNPerson(r *Rand) string {
	d := regionCode(r) + r.Digits(8)
	d += string(innDigit(d, []int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8}))
	d += string(innDigit(d, []int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}))
	return d
}

// INNOrg returns a valid 10-digit organisation taxpayer number.
func INNOrg(r *Rand) string {
	d := regionCode(r) + r.Digits(7)
	return d + string(innDigit(d, []int{2, 4, 10, 3, 5, 9, 4, 6, 8}))
}

// ValidINN checks a 10- or 12-digit taxpayer number.
func ValidINN(s string) bool {
	switch len(s) {
	case 10:
		return innDigit(s, []int{2, 4, 10, 3, 5, 9, 4, 6, 8}) == s[9]
	case 12:
		return innDigit(s, []int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == s[10] &&
			innDigit(s, []int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}) == s[11]
	}
	return false
}

func regionCode(r *Rand) string {
	return pad2(1 + r.Intn(89))
}

// modDigits returns the decimal string's value mod m.
func modDigits(s string, m int) int {
	v := 0
	for i := 0; i < len(s); i++ {
		v = (v*10 + int(s[i]-'0')) % m
	}
	return v
}

// OGRN returns a valid 13-digit primary state registration number.
func OGRN(r *Rand) string {
	d := string(byte('1'+r.Intn(2)*4)) + pad2(2+r.Intn(23)) + regionCode(r) + r.Digits(7)
	return d + strconv.Itoa(modDigits(d, 11)%10)
}

// OGRNIP returns a valid 15-digit registration number of an entrepreneur.
func OGRNIP(r *Rand) string {
	d := "3" + pad2(4+r.Intn(21)) + regionCode(r) + r.Digits(9)
	return d + strconv.Itoa(modDigits(d, 13)%10)
}

// ValidOGRN checks a 13-digit OGRN or a 15-digit OGRNIP.
func ValidOGRN(s string) bool {
	switch len(s) {
	case 13:
		return strconv.Itoa(modDigits(s[:12], 11)%10) == s[12:]
	case 15:
		return strconv.Itoa(modDigits(s[:14], 13)%10) == s[14:]
	}
	return false
}

// Luhn completes prefix+random digits to a valid card number of n digits.
func Luhn(r *Rand, prefix string, n int) string {
	d := prefix + r.Digits(n-1-len(prefix))
	sum := 0
	for i := len(d) - 1; i >= 0; i-- {
		v := int(d[i] - '0')
		if (len(d)-1-i)%2 == 0 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return d + strconv.Itoa((10-sum%10)%10)
}

// ValidLuhn checks a digit string.
func ValidLuhn(s string) bool {
	sum := 0
	for i := len(s) - 1; i >= 0; i-- {
		v := int(s[i] - '0')
		if (len(s)-1-i)%2 == 1 {
			v *= 2
			if v > 9 {
				v -= 9
			}
		}
		sum += v
	}
	return len(s) > 0 && sum%10 == 0
}
