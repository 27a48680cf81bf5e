package classify

// TextlessGate is the least probability the picture must give, together,
// the catalogue types printed without text to read (textlessTypes) for
// Classifier.Textless to report a crop as one of them.
const TextlessGate = 0.5

// textlessTypes are the catalogue types whose pages carry no text to
// read: a blank passport page holds a guilloche, a page number and the
// perforated series. The text-line detector finds the guilloche's strokes
// as a line or two and the recogniser reads them as about ten
// characters, which turn the page a quarter with near certainty; docnet's
// layout reading of the page is right more often (docs/models.md, "A
// blank page turned by the picture alone").
var textlessTypes = map[string]bool{"passport_blank_page": true}

// Textless reports whether the picture (docnet's outputs on the crop, as
// Outputs returns them) gives the types printed without text at least
// TextlessGate of its probability together: the crop's orientation is
// then the picture's alone, its text lines being none of the document's.
// Without the type head it reports false.
func (c *Classifier) Textless(out map[string][]float32) bool {
	if len(c.textlessIdx) == 0 {
		return false
	}
	share, ok := c.pictureShare(out, c.textlessIdx)
	return ok && share >= TextlessGate
}
