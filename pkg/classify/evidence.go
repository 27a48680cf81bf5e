package classify

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/mrz"
	"docsuite/pkg/stages"
)

//go:embed mrzcodes.json
var mrzCodesJSON []byte

// MRZCodes maps a zone key (see ZoneKey) to the catalogue types that carry
// such a zone. A key that is not in the map belongs to no catalogue type
// (ApplyZone says what a misread issuer names).
type MRZCodes map[string][]string

// LoadMRZCodes returns the table shipped with the classifier
// (mrzcodes.json, kept equal to the synthetic factory's templates).
func LoadMRZCodes() (MRZCodes, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(mrzCodesJSON, &raw); err != nil {
		return nil, fmt.Errorf("classify: mrzcodes.json: %w", err)
	}
	codes := MRZCodes{}
	for k, v := range raw {
		if strings.HasPrefix(k, "_") {
			continue
		}
		var types []string
		if err := json.Unmarshal(v, &types); err != nil {
			return nil, fmt.Errorf("classify: mrzcodes.json %q: %w", k, err)
		}
		for _, t := range types {
			if !doctypes.Known(t) {
				return nil, fmt.Errorf("classify: mrzcodes.json %q: unknown type %q", k, t)
			}
		}
		codes[k] = types
	}
	return codes, nil
}

// Zone is what a machine-readable zone read on the document says about
// its type: the document code, the issuing state, and how far the reading
// can be trusted.
type Zone struct {
	// DocumentCode is the zone's first characters without fillers ("P",
	// "PN", "ID", "I", "AC", "V", ...).
	DocumentCode string
	// Issuer is the issuing state's ICAO code ("RUS", "D", ...) and
	// Nationality the holder's: the first line of a passport zone carries
	// no check digit, so a misread issuer is looked up by nationality.
	Issuer, Nationality string
	// Valid is true when every check digit of the zone matches.
	Valid bool
	// Confidence is the mean recognition probability of its characters.
	Confidence float64
}

// ZoneKey is the key of a zone in MRZCodes: its kind (P for passports,
// PN for the Russian internal passport, I for identity cards and other
// official travel documents of TD1/TD2 size, V for visas) and its issuer.
func ZoneKey(z Zone) string { return zoneKey(z, z.Issuer) }

// ofState returns the catalogue types of every kind of zone state issues,
// sorted, and whether there are any.
func (c MRZCodes) ofState(state string) ([]string, bool) {
	seen := map[string]bool{}
	var types []string
	for key, ts := range c {
		if !strings.HasSuffix(key, " "+state) {
			continue
		}
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				types = append(types, t)
			}
		}
	}
	sort.Strings(types)
	return types, len(types) > 0
}

func zoneKey(z Zone, state string) string {
	code := strings.ToUpper(strings.TrimRight(z.DocumentCode, "<"))
	kind := "I"
	switch {
	case code == "PN" && state == "RUS":
		kind = "PN"
	case strings.HasPrefix(code, "P"):
		kind = "P"
	case strings.HasPrefix(code, "V"):
		kind = "V"
	}
	return kind + " " + state
}

// MinZoneConfidence is the recognition confidence a zone whose check
// digits do not all match must reach to count as evidence; a zone with
// every check digit right counts whatever its confidence.
const MinZoneConfidence = 0.9

// ValidZoneTrust is the least confidence a zone with every check digit
// right and a state code for issuer lends its answer. Such a zone named
// the right state and kind for 78 of 78 documents of a held-out synthetic
// set (seed 55501, cut by the cropper) and 31 of 31 real ones, while the
// recognizer's own character confidence (Zone.Confidence) put them at
// 0.72–0.88: taken alone it made every answer the zone settled
// underconfident. The share among the key's types (year variants) still
// scales it. A zone whose issuer is misread keeps its character
// confidence.
const ValidZoneTrust = 0.98

// ZoneSettles reports whether a zone decides the reply alone: every check
// digit right and a state code for issuer. ApplyZone then answers one of
// the types its key (or the holder's nationality) lists, or `other`, with
// at least ValidZoneTrust; the picture only chooses among those types,
// which are year variants of one family and so weigh the printed words
// alike: a reader may spare reading them.
func ZoneSettles(z *Zone) bool {
	return z != nil && z.Valid && mrz.KnownState(z.Issuer)
}

// ApplyZone revises a reply with a zone read on the document. A zone names
// the issuing state and the kind of document, which settles look-alike
// types the picture alone cannot (a Pakistani and an Indian passport data
// page; a foreign identity card and a Kazakh one):
//   - a zone whose key lists catalogue types restricts the answer to them
//     (and to the request's doc_type list, when there is one): the most
//     probable of them by the picture wins, with confidence the zone's
//     trust (its recognition confidence, at least ValidZoneTrust when
//     every check digit is right and the issuer is a state code) times
//     that type's share of their probability;
//   - a zone of any other key (by issuer, then by the holder's
//     nationality) is a document of no catalogue type: `other`, with the
//     zone's trust;
//   - a zone whose issuer is no state code (mrz.KnownState) has its first
//     line misread: the catalogue types of the holder's nationality, of
//     any kind, are the candidates; when the nationality is no state code
//     either, the reply is left as it is.
//
// A zone that is not trusted (check digits off and low confidence) leaves
// the reply as it is. p holds the picture's probabilities per class of
// classes; allowed is the request's doc_type list (empty: every type).
func ApplyZone(reply stages.ClassifyReply, z Zone, codes MRZCodes, classes []string, p []float64, allowed []string) stages.ClassifyReply {
	if z.Issuer == "" || (!z.Valid && z.Confidence < MinZoneConfidence) {
		return reply
	}
	conf := min(max(z.Confidence, 0), 1)
	if ZoneSettles(&z) {
		conf = max(conf, ValidZoneTrust)
	}
	types, ok := codes[ZoneKey(z)]
	switch {
	case ok:
	case mrz.KnownState(z.Issuer):
		// A foreign document, or the issuer misread as another state:
		// the nationality may name the state.
		types, ok = codes[zoneKey(z, z.Nationality)]
	case mrz.KnownState(z.Nationality):
		// The first line's letters are misread (no check digit covers
		// them; a lost leading "P<" shifts the issuer into the code):
		// neither the kind nor the issuer counts, the nationality names
		// the state, and any of its types is a candidate.
		types, ok = codes.ofState(z.Nationality)
	default:
		// Nothing legible names a state: the zone says nothing.
		return reply
	}
	if !ok {
		return stages.ClassifyReply{Type: doctypes.Other, Confidence: conf,
			Top: []stages.Score{{Type: doctypes.Other, Probability: conf}}}
	}
	if len(allowed) > 0 {
		permitted := map[string]bool{}
		for _, t := range allowed {
			permitted[t] = true
		}
		var kept []string
		for _, t := range types {
			if permitted[t] {
				kept = append(kept, t)
			}
		}
		if len(kept) == 0 {
			// The zone names types the caller did not list: the document
			// is none of the listed ones.
			return stages.ClassifyReply{Type: doctypes.Other, Confidence: conf,
				Top: []stages.Score{{Type: doctypes.Other, Probability: conf}}}
		}
		types = kept
	}
	index := map[string]int{}
	for i, c := range classes {
		index[c] = i
	}
	scores := make([]stages.Score, 0, len(types))
	sum := 0.0
	for _, t := range types {
		v := 1e-6 // a type the picture gives nothing still stays a candidate
		if i, ok := index[t]; ok && i < len(p) {
			v += p[i]
		}
		scores = append(scores, stages.Score{Type: t, Probability: v})
		sum += v
	}
	for i := range scores {
		scores[i].Probability = conf * scores[i].Probability / sum
	}
	sort.SliceStable(scores, func(a, b int) bool { return scores[a].Probability > scores[b].Probability })
	return stages.ClassifyReply{Type: scores[0].Type, Confidence: scores[0].Probability, Top: scores[:min(topN, len(scores))]}
}

// MinDocumentLines is the number of text lines found on a crop from which
// it is taken to be a document: not_document and empty are then ruled out
// and the picture's probability is shared among the rest. Photographs of
// scenes carry a sign or a number plate, not a page of lines.
const MinDocumentLines = 5

// ruleOutNonDocuments zeroes not_document and empty in p and renormalises
// it; it leaves p as it is when nothing else has any probability.
func ruleOutNonDocuments(classes []string, p []float64) {
	keepOnly(classes, p, func(c string) bool { return c != doctypes.NotDocument && c != doctypes.Empty })
}

// keepOnly zeroes the classes keep refuses and renormalises p over the
// rest; it leaves p as it is when the rest has no probability.
func keepOnly(classes []string, p []float64, keep func(string) bool) {
	rest := 0.0
	for i, c := range classes {
		if keep(c) {
			rest += p[i]
		}
	}
	if rest <= 0 {
		return
	}
	for i, c := range classes {
		if keep(c) {
			p[i] /= rest
		} else {
			p[i] = 0
		}
	}
}

// ZoneGate is the least share of the picture's probability, together, of
// the classes a machine-readable zone speaks for (zoneClasses) under which
// the classifier does not look for a zone (Classifier.ZoneMayCount).
const ZoneGate = 0.01

// zoneClasses returns the indices among classes of what a zone can answer:
// the catalogue types of codes and `other`, which a zone of no catalogue
// type is.
func zoneClasses(codes MRZCodes, classes []string) []int {
	carries := map[string]bool{doctypes.Other: true}
	for _, ts := range codes {
		for _, t := range ts {
			carries[t] = true
		}
	}
	return classIndices(classes, carries)
}

// classIndices returns the indices among classes of those in set.
func classIndices(classes []string, set map[string]bool) []int {
	var idx []int
	for i, c := range classes {
		if set[c] {
			idx = append(idx, i)
		}
	}
	return idx
}

// pictureShare is the probability the picture (docnet's outputs on a crop,
// as Outputs returns them) gives the classes idx together; ok is false
// without the type head.
func (c *Classifier) pictureShare(out map[string][]float32, idx []int) (share float64, ok bool) {
	logits, ok := out[TypeHead]
	if !ok {
		return 0, false
	}
	p := c.head.Probabilities(logits)
	for _, i := range idx {
		share += p[i]
	}
	return share, true
}

// ZoneMayCount reports whether a zone read on the crop could matter to
// the answer: whether the picture (docnet's outputs on the crop, as
// Outputs returns them) gives the catalogue types that carry a zone and
// `other` at least ZoneGate of its probability together. A crop the
// picture is sure is a SNILS card, an INN certificate or a form (types
// printing no zone) is then not searched for one, which costs a
// text-line detection of the crop's lower band and the recognition of
// its rows. On real photographs docnet leaves `other` a few per cent, so
// the zone is still looked for there. Without the type head it reports
// true.
func (c *Classifier) ZoneMayCount(out map[string][]float32) bool {
	share, ok := c.pictureShare(out, c.zoneIdx)
	return !ok || share >= ZoneGate
}
