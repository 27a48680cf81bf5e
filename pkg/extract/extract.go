// Package extract reads the fields of a classified, upright document
// crop (the recognize method). The Russian passport's main spread
// (passport_main) has its 13 fields, each chosen between the machine-
// readable zone (pkg/mrz, check digits verified) and the visual zone
// (Tesseract `rus` on the field's region, with a per-field character set).
// The residence pages (passport_registration and its kinds) give the
// fields of their newest stamp, whose kind names the type answered.
// Other document types have no field list yet and answer an empty set.
package extract

import (
	"context"
	"fmt"
	"image"
	"time"

	"docsuite/pkg/mrz"
	"docsuite/pkg/ocr"
	"docsuite/pkg/ppocr"
	"docsuite/pkg/synth"
)

// Field is one extracted field: its text in the format the API documents,
// the confidence of the extraction in [0, 1], and where it lies on the
// upright crop (top-left, top-right, bottom-left, bottom-right pixels).
// Source is set when the text is not the one read but a normalised one:
// "directory" (the subdivision directory's name of the code read) or
// "address_service" (the external address service's form).
type Field struct {
	Text       string    `json:"text"`
	Confidence float64   `json:"confidence"`
	Coords     [4][2]int `json:"coords"`
	Source     string    `json:"source,omitempty"`
}

// Fields are a document's fields keyed by name.
type Fields map[string]Field

// Extractor extracts fields; it is safe for concurrent use.
type Extractor struct {
	mrz      *mrz.Reader
	ocr      *ocr.Engine
	passport *layout
	digits   ppocr.Charset // PP-OCR's digits, dots and hyphens (readDigits)
	now      func() time.Time
}

// New returns an Extractor reading machine-readable zones with r and
// visual fields with o (an engine for the `rus` language). The passport
// layout comes from the document factory's template of passport_main
// (pkg/synth), the one description of the form in the project.
func New(r *mrz.Reader, o *ocr.Engine) (*Extractor, error) {
	cat, err := synth.LoadCatalogue()
	if err != nil {
		return nil, fmt.Errorf("extract: %w", err)
	}
	t, ok := cat.Get("passport_main")
	if !ok {
		return nil, fmt.Errorf("extract: no passport_main template")
	}
	l, err := newLayout(t)
	if err != nil {
		return nil, err
	}
	// A zone that does not verify is read a second time (phone photos).
	return &Extractor{mrz: r.WithSecondReading(), ocr: o, passport: l, digits: r.Engine().Charset(isDigitChar), now: time.Now}, nil
}

// Size is how many documents the extractor reads at once without one
// waiting for another: its Tesseract engines.
func (x *Extractor) Size() int { return x.ocr.Size() }

// Result is what extraction finds in one document: its type (a residence
// page's type follows its newest stamp) and its fields.
type Result struct {
	DocType string
	Fields  Fields
}

// Supported reports whether docType has a field list.
func Supported(docType string) bool { return docType == "passport_main" || isResidence(docType) }

// Extract reads the fields of an upright crop of a document of type
// docType. Types without a field list give an empty set.
func (x *Extractor) Extract(ctx context.Context, docType string, img image.Image) (Result, error) {
	switch {
	case docType == "passport_main":
		f, err := x.Passport(ctx, img)
		return Result{DocType: docType, Fields: f}, err
	case isResidence(docType):
		return x.Registration(ctx, docType, img)
	}
	return Result{DocType: docType, Fields: Fields{}}, nil
}

func quad(r image.Rectangle) [4][2]int {
	return [4][2]int{{r.Min.X, r.Min.Y}, {r.Max.X, r.Min.Y}, {r.Min.X, r.Max.Y}, {r.Max.X, r.Max.Y}}
}

func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }
