// Package classify names a document crop's type with docnet's type head:
// calibrated probabilities over the 97 identifiers, optionally restricted
// to the request's doc_type list, and `other` when the best type is not
// probable enough.
package classify

import (
	"context"
	"fmt"
	"image"
	"log/slog"
	"sort"
	"strings"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/onnxrt"
	"docsuite/pkg/stages"
)

// ModelName is docnet's entry in models/manifest.json.
const ModelName = "docnet"

// TypeHead is the output holding the type logits.
const TypeHead = "type_logits"

// topN is how many runners-up a reply lists.
const topN = 5

// Options locate the model and the runtime.
type Options struct {
	Dir      string // models directory (manifest.json)
	Library  string // libonnxruntime.so.1
	Threads  int
	AllowGPU bool
	Log      *slog.Logger
	// Words is the printed words' table (LoadTypeWords), shared with the
	// zone reader of the same process; nil loads one.
	Words *TypeWords
}

// Classifier is a loaded type model, safe for concurrent use.
type Classifier struct {
	rt      *onnxrt.Runtime
	sess    *onnxrt.Session
	head    onnxrt.Head
	other   float64
	special map[int]bool
	codes   MRZCodes
	// zoneIdx are the classes a zone speaks for (zoneClasses).
	zoneIdx []int
	// textlessIdx are the classes printed without text (textlessTypes).
	textlessIdx []int
	// words and wordW weigh the printed words read on a crop
	// (Evidence.Words) against the picture.
	words *TypeWords
	wordW WordWeights
	log   *slog.Logger
}

// Open loads the model; any failure (library, manifest, file, checksum)
// is returned so the role can report the model as not loaded.
func Open(opts Options) (*Classifier, error) {
	sess, rt, err := onnxrt.OpenModel(onnxrt.Options{Library: opts.Library, Threads: opts.Threads, AllowGPU: opts.AllowGPU, Log: opts.Log}, opts.Dir, ModelName)
	if err != nil {
		return nil, err
	}
	head, err := sess.Spec().Head(TypeHead)
	if err != nil {
		_ = sess.Close()
		_ = rt.Close()
		return nil, err
	}
	codes, err := LoadMRZCodes()
	if err != nil {
		_ = sess.Close()
		_ = rt.Close()
		return nil, err
	}
	words := opts.Words
	if words == nil {
		words, err = LoadTypeWords()
	}
	var ww WordWeights
	if err == nil {
		ww, err = LoadWordWeights()
	}
	if err != nil {
		_ = sess.Close()
		_ = rt.Close()
		return nil, err
	}
	c := &Classifier{rt: rt, sess: sess, head: head, other: sess.Spec().OtherThreshold, special: map[int]bool{}, codes: codes, log: opts.Log,
		words: words, wordW: ww, zoneIdx: zoneClasses(codes, head.Classes), textlessIdx: classIndices(head.Classes, textlessTypes)}
	for i, t := range head.Classes {
		if doctypes.IsSpecial(t) {
			c.special[i] = true
		}
	}
	return c, nil
}

// Close releases the model.
func (c *Classifier) Close() error {
	err := c.sess.Close()
	if e := c.rt.Close(); err == nil {
		err = e
	}
	return err
}

// Classify returns the crop's type. With docTypes, only those types and
// the special classes (other, not_document, empty) are candidates, the
// probabilities are renormalised over them and Top lists only them. A document type whose
// probability is below the manifest's other_threshold becomes `other`
// with confidence 1 - p, the probability that it is not that type.
func (c *Classifier) Classify(ctx context.Context, img image.Image, docTypes []string) (stages.ClassifyReply, error) {
	return c.ClassifyWith(ctx, img, docTypes, Evidence{})
}

// Evidence is what was read on the document beside its picture.
type Evidence struct {
	// Zone is the machine-readable zone, nil when none was read (see
	// ApplyZone for how it counts).
	Zone *Zone
	// TextLines is the number of text lines found on the crop; from
	// MinDocumentLines on, not_document and empty are ruled out.
	TextLines int
	// Words are the printed words read on the crop turned upright
	// (TypeWords); WordsRead says they were looked for, even if none was
	// found.
	Words     []string
	WordsRead bool
	// WordConfidence is Tesseract's confidence (0 to 1) in each of Words,
	// kept for tools/wordsfit's readings; the classifier does not weigh
	// it (a filter on it was measured and not kept: docs/models.md).
	WordConfidence []float64
	// Blank says the crop prints nothing: light paper of one tone (Flat)
	// with no text line found on it. Every catalogue type is then ruled
	// out, and the picture's probability is shared among other,
	// not_document and empty.
	Blank bool
	// EdgeNumber says a Russian internal passport's series and number was
	// read along the right edge of the crop turned upright: it counts for
	// the types that print it (TypeWords.PrintsEdgeNumber), weighed as the
	// words are.
	EdgeNumber bool
}

// Classes lists the classes of the picture's probabilities, in order.
func (c *Classifier) Classes() []string { return c.head.Classes }

// Picture returns the picture's calibrated probability of each class (see
// Classes), before any evidence.
func (c *Classifier) Picture(ctx context.Context, img image.Image) ([]float64, error) {
	out, err := c.Outputs(ctx, img)
	if err != nil {
		return nil, err
	}
	return c.head.Probabilities(out[TypeHead]), nil
}

// Outputs runs docnet once on img and returns every head's logits by
// output name: the type head this package reads and the orientation head
// (orient.OrientHead), which a caller that also orients the crop passes on
// instead of running the same network on the same crop a second time.
func (c *Classifier) Outputs(ctx context.Context, img image.Image) (map[string][]float32, error) {
	out, err := c.sess.Run(ctx, c.sess.Spec().Input.Tensor(nil, img), 1)
	if err != nil {
		return nil, fmt.Errorf("classify: %w", err)
	}
	return out, nil
}

// ClassifyWith is Classify with evidence read on the document.
func (c *Classifier) ClassifyWith(ctx context.Context, img image.Image, docTypes []string, ev Evidence) (stages.ClassifyReply, error) {
	out, err := c.Outputs(ctx, img)
	if err != nil {
		return stages.ClassifyReply{}, err
	}
	return c.ClassifyOutputs(out, docTypes, ev)
}

// ClassifyOutputs is ClassifyWith over docnet's outputs on the crop, as
// Outputs returns them.
func (c *Classifier) ClassifyOutputs(out map[string][]float32, docTypes []string, ev Evidence) (stages.ClassifyReply, error) {
	logits, ok := out[TypeHead]
	if !ok {
		return stages.ClassifyReply{}, fmt.Errorf("classify: no %s among the outputs", TypeHead)
	}
	p := c.head.Probabilities(logits)
	if ev.WordsRead || ev.EdgeNumber {
		s := c.words.ScoreEvidence(ev.Words, ev.EdgeNumber)
		if c.log != nil && c.log.Enabled(context.Background(), slog.LevelDebug) {
			c.log.Debug("classify: printed words", "picture", c.topOf(p), "read", s.Read, "unknown", s.Unknown, "edge_number", s.EdgeNumber)
		}
		p = c.words.ApplyWords(c.wordW, c.head.Classes, p, s)
	}
	if ev.TextLines >= MinDocumentLines {
		ruleOutNonDocuments(c.head.Classes, p)
	}
	if ev.Blank {
		ruleOutDocuments(c.head.Classes, p)
	}
	reply := c.decide(append([]float64(nil), p...), docTypes)
	if ev.Zone != nil {
		reply = ApplyZone(reply, *ev.Zone, c.codes, c.head.Classes, p, docTypes)
	}
	return reply, nil
}

// topOf names the three most probable classes of p, for the debug log.
func (c *Classifier) topOf(p []float64) string {
	order := make([]int, len(p))
	for i := range order {
		order[i] = i
	}
	byProbability(order, p)
	var b strings.Builder
	for k, i := range order[:min(3, len(order))] {
		if k > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s=%.2f", c.head.Classes[i], p[i])
	}
	return b.String()
}

// byProbability sorts class indices by p, most probable first; ties keep
// their order.
func byProbability(order []int, p []float64) {
	sort.SliceStable(order, func(a, b int) bool { return p[order[a]] > p[order[b]] })
}

// decide turns the picture's probabilities into a reply; it renormalises p
// in place under a doc_type list.
func (c *Classifier) decide(p []float64, docTypes []string) stages.ClassifyReply {
	// order holds the candidates: every class, or under a doc_type list
	// the listed types and the special classes, renormalised.
	order := make([]int, 0, len(p))
	if len(docTypes) > 0 {
		allowed := map[string]bool{}
		for _, t := range docTypes {
			allowed[t] = true
		}
		sum := 0.0
		for i, t := range c.head.Classes {
			if allowed[t] || c.special[i] {
				order = append(order, i)
				sum += p[i]
			}
		}
		for _, i := range order {
			p[i] /= sum // sum > 0: the special classes are always candidates
		}
	} else {
		for i := range p {
			order = append(order, i)
		}
	}
	byProbability(order, p)
	best := order[0]
	reply := stages.ClassifyReply{Type: c.head.Classes[best], Confidence: p[best]}
	if !c.special[best] && p[best] < c.other {
		reply.Type, reply.Confidence = doctypes.Other, 1-p[best]
	}
	for _, i := range order[:min(topN, len(order))] {
		reply.Top = append(reply.Top, stages.Score{Type: c.head.Classes[i], Probability: p[i]})
	}
	return reply
}
