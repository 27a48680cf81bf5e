// Package params parses and validates the query parameters of the
// classification and extraction methods exactly as the service
// description's tables say: types, ranges, defaults, arrays repeated or
// comma-separated, obsolete parameters accepted and ignored.
package params

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"docsuite/pkg/apierr"
	"docsuite/pkg/doctypes"
)

// Classify holds the parameters of classify (and of fraud, which
// classifies first).
type Classify struct {
	MinShape         int      `json:"min_shape"`
	MinFilesize      int      `json:"min_filesize"`
	MaxExposureScore float64  `json:"max_exposure_score"`
	MinExposureScore float64  `json:"min_exposure_score"`
	MaxBlurScore     float64  `json:"max_blur_score"`
	DocTypes         []string `json:"doc_type,omitempty"`
	Priority         int      `json:"priority"`
	SimpleCropper    bool     `json:"simple_cropper"`
	Async            bool     `json:"async"`
	CheckFake        bool     `json:"check_fake"`
	PDFRawImages     bool     `json:"pdf_raw_images"`
	AutoPDFRawImages bool     `json:"auto_pdf_raw_images"`
	DPI              int      `json:"dpi"`
	Quality          int      `json:"quality"`
	WithHITL         bool     `json:"with_hitl"`
	Mode             string   `json:"mode,omitempty"`
	TaskTags         []string `json:"task_tags,omitempty"`
	ReturnCrops      bool     `json:"return_crops"`
}

// NoCrop reports whether the whole page is classified as one document.
func (c Classify) NoCrop() bool { return c.Mode == "classify_only" || c.Mode == "classify_crop" }

// Recognize holds the parameters of recognize.
type Recognize struct {
	DocTypes          []string `json:"doc_type,omitempty"`
	Mode              string   `json:"mode"`
	ReturnCrops       bool     `json:"return_crops"`
	UseInternalAPI    bool     `json:"use_internal_api"`
	NormalizationFIAS bool     `json:"normalization_fias"`
	Async             bool     `json:"async"`
	Priority          int      `json:"priority"`
	TaskTags          []string `json:"task_tags,omitempty"`
	// Decoding parameters shared with classify.
	DPI              int  `json:"dpi"`
	Quality          int  `json:"quality"`
	PDFRawImages     bool `json:"pdf_raw_images"`
	AutoPDFRawImages bool `json:"auto_pdf_raw_images"`
}

// reader collects the first error while reading values.
type reader struct {
	q   url.Values
	err *apierr.Error
}

func (r *reader) fail(name, msg, typ string) {
	if r.err == nil {
		r.err = apierr.Param(name, msg, typ)
	}
}

// raw returns a single-valued parameter. Repeated with one value it is
// that value; repeated with different values it is a 422: taking the last
// would let an invalid earlier one (async=maybe&async=false) pass unseen.
func (r *reader) raw(name string) (string, bool) {
	vs, ok := r.q[name]
	if !ok || len(vs) == 0 {
		return "", false
	}
	last := strings.TrimSpace(vs[len(vs)-1])
	for _, v := range vs[:len(vs)-1] {
		if !strings.EqualFold(strings.TrimSpace(v), last) {
			r.fail(name, "parameter given more than once with different values", "value_error.repeated")
			break
		}
	}
	return last, true
}

// Int reads an integer within [lo, hi].
func (r *reader) int(name string, def, lo, hi int) int {
	s, ok := r.raw(name)
	if !ok || s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		r.fail(name, "value is not a valid integer", "type_error.integer")
		return def
	}
	if n < lo || n > hi {
		r.fail(name, fmt.Sprintf("ensure this value is between %d and %d", lo, hi), "value_error.number.not_in_range")
		return def
	}
	return n
}

// maxScore bounds the number parameters from above (the spec documents
// it as their maximum): a threshold has no use beyond it, and it keeps
// +Inf out.
const maxScore = 1e9

// positive reads a number in (0, maxScore].
func (r *reader) positive(name string, def float64) float64 {
	s, ok := r.raw(name)
	if !ok || s == "" {
		return def
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		r.fail(name, "value is not a valid number", "type_error.float")
		return def
	}
	if f > maxScore {
		r.fail(name, fmt.Sprintf("ensure this value is less than or equal to %d", int(maxScore)), "value_error.number.not_le")
		return def
	}
	if !(f > 0) {
		r.fail(name, "ensure this value is greater than 0", "value_error.number.not_gt")
		return def
	}
	return f
}

func (r *reader) bool(name string, def bool) bool {
	s, ok := r.raw(name)
	if !ok || s == "" {
		return def
	}
	switch strings.ToLower(s) {
	case "true", "1":
		return true
	case "false", "0":
		return false
	}
	r.fail(name, "value could not be parsed to a boolean (true, false, 1, 0)", "type_error.bool")
	return def
}

// list reads a repeated or comma-separated parameter.
func (r *reader) list(name string) []string {
	var out []string
	for _, v := range r.q[name] {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

func (r *reader) docTypes() []string {
	ts := r.list("doc_type")
	for _, t := range ts {
		if !doctypes.Known(t) {
			r.fail("doc_type", fmt.Sprintf("unknown document type %q", t), "value_error.enum")
		}
	}
	return ts
}

func (r *reader) oneOf(name, def string, allowed ...string) string {
	s, ok := r.raw(name)
	if !ok || s == "" {
		return def
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	r.fail(name, fmt.Sprintf("value must be one of: %s", strings.Join(allowed, ", ")), "value_error.enum")
	return def
}

const maxInt = 1<<31 - 1

// ParseClassify validates classify's query parameters. The obsolete
// check_fake_experimental and gauss are accepted and ignored (as is token,
// which authentication reads).
func ParseClassify(q url.Values) (Classify, error) {
	r := &reader{q: q}
	c := Classify{
		MinShape:         r.int("min_shape", 256, 1, maxInt),
		MinFilesize:      r.int("min_filesize", 10240, 1, maxInt),
		MaxExposureScore: r.positive("max_exposure_score", 0.4),
		MinExposureScore: r.positive("min_exposure_score", 0.05),
		MaxBlurScore:     r.positive("max_blur_score", 2),
		DocTypes:         r.docTypes(),
		Priority:         r.int("priority", 1, 1, maxInt),
		SimpleCropper:    r.bool("simple_cropper", false),
		Async:            r.bool("async", false),
		CheckFake:        r.bool("check_fake", false),
		PDFRawImages:     r.bool("pdf_raw_images", true),
		AutoPDFRawImages: r.bool("auto_pdf_raw_images", true),
		DPI:              r.int("dpi", 300, 1, 1200),
		Quality:          r.int("quality", 75, 0, 100),
		WithHITL:         r.bool("with_hitl", false),
		Mode:             r.oneOf("mode", "", "default", "classify_crop", "classify_only"),
		TaskTags:         r.list("task_tags"),
		ReturnCrops:      r.bool("return_crops", true),
	}
	if r.err != nil {
		return Classify{}, r.err
	}
	return c, nil
}

// ParseRecognize validates recognize's query parameters.
func ParseRecognize(q url.Values) (Recognize, error) {
	r := &reader{q: q}
	p := Recognize{
		DocTypes:          r.docTypes(),
		Mode:              r.oneOf("mode", "default", "default", "recognize_only"),
		ReturnCrops:       r.bool("return_crops", false),
		UseInternalAPI:    r.bool("use_internal_api", true),
		NormalizationFIAS: r.bool("normalization_fias", false),
		Async:             r.bool("async", false),
		Priority:          r.int("priority", 1, 1, maxInt),
		TaskTags:          r.list("task_tags"),
		DPI:               r.int("dpi", 300, 1, 1200),
		Quality:           r.int("quality", 75, 0, 100),
		PDFRawImages:      r.bool("pdf_raw_images", true),
		AutoPDFRawImages:  r.bool("auto_pdf_raw_images", true),
	}
	if r.err != nil {
		return Recognize{}, r.err
	}
	if p.Mode == "recognize_only" {
		if _, err := p.OnlyType(); err != nil {
			return Recognize{}, err
		}
	}
	return p, nil
}

// OnlyType is the one type mode=recognize_only reads every page as. The
// service description has the image and its type come from an earlier
// classification, so doc_type names exactly one type (repeating it is
// harmless); none, or two different ones, is a bad parameter (422 naming
// doc_type): reading the page as the first and ignoring the rest, as
// before, answered a registration page sent with
// doc_type=passport_main,passport_registration as a main spread.
func (p Recognize) OnlyType() (string, error) {
	if len(p.DocTypes) == 0 {
		return "", apierr.Param("doc_type", "mode=recognize_only needs doc_type", "value_error.missing")
	}
	t := p.DocTypes[0]
	for _, o := range p.DocTypes[1:] {
		if o != t {
			return "", apierr.Param("doc_type", fmt.Sprintf("mode=recognize_only reads the image as the one type of its earlier classification: "+
				"give one doc_type, not %s", strings.Join(p.DocTypes, ", ")), "value_error.list.max_items")
		}
	}
	return t, nil
}
