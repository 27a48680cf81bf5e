package synth

import "strings"

// PrintedValues returns the values n documents of template t, drawn from
// seed, print in their fields: the names, places, issuing authorities and
// other filled-in text a reader sees beside the template's own captions.
// Fields drawn as handwriting are left out (OCR seldom reads handwriting,
// so their values are no evidence of the type), and so is filler text
// (the random words of paragraphs and tables), which only has to look like
// a language. The strings are returned as printed (upper-cased where the
// template says so), one per field and document, duplicates included.
func (t *Template) PrintedValues(seed uint64, n int) []string {
	var out []string
	for i := range n {
		v := newDocValues(NewRand(seed, hashString(t.Type), uint64(i)), t)
		for _, e := range t.Elements {
			if e.Kind != "field" || e.Hand || e.Font == "hand" {
				continue
			}
			gen := e.Gen
			if gen == "" {
				gen = e.Field
			}
			if strings.HasPrefix(gen, "para:") || strings.HasPrefix(gen, "words:") {
				continue
			}
			val := v.get(gen)
			if e.Upper {
				val = strings.ToUpper(val)
			}
			out = append(out, val)
		}
	}
	return out
}
