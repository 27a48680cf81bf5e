// Package doctypes is the catalogue of document type identifiers the
// service can return: the 94 documents of the service description plus the
// special classes other, not_document and empty.
package doctypes

// Special classes: never rotated or mirrored.
const (
	Other       = "other"
	NotDocument = "not_document"
	Empty       = "empty"
)

// All returns every identifier in a stable order: Russian documents,
// foreign documents, then the three special classes. The slice is fresh on
// every call; callers may modify it.
func All() []string {
	out := make([]string, 0, len(russian)+len(foreign)+3)
	out = append(out, russian[:]...)
	out = append(out, foreign[:]...)
	return append(out, Other, NotDocument, Empty)
}

// Documents returns the 94 document identifiers without special classes.
func Documents() []string {
	all := All()
	return all[:len(all)-3]
}

// IsSpecial reports whether t is one of other, not_document, empty.
func IsSpecial(t string) bool {
	return t == Other || t == NotDocument || t == Empty
}

// Known reports whether t is a valid identifier (special classes included).
func Known(t string) bool {
	_, ok := index[t]
	return ok
}

var index = func() map[string]struct{} {
	m := make(map[string]struct{})
	for _, t := range All() {
		m[t] = struct{}{}
	}
	return m
}()

// Family returns the type identifier with its year and side variant
// stripped, used to count real-data accuracy at family level, e.g.
// "kz_id_2014_front" -> "kz_id".
func Family(t string) string {
	parts := splitUnderscore(t)
	out := parts[:0]
	for _, p := range parts {
		if isYear(p) || p == "front" || p == "back" || p == "main" {
			continue
		}
		out = append(out, p)
	}
	s := ""
	for i, p := range out {
		if i > 0 {
			s += "_"
		}
		s += p
	}
	return s
}

func splitUnderscore(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '_' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func isYear(p string) bool {
	if len(p) != 4 {
		return false
	}
	for _, c := range p {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
