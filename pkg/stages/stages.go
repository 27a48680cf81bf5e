// Package stages is the contract between the gateway and the stage
// workers: stage names (NATS subjects) and the JSON messages they exchange.
// Messages carry object-store keys and small fields only.
//
// During a rolling upgrade a caller of one release talks to workers of
// another (docs/operations.md, "Upgrade"), so a message changes only by
// fields added that the other side may leave out: a field is never
// renamed, never made required, and a zero value means what it meant
// before the field existed. A reply whose shape did change is read in both
// shapes by the callers of later releases (MethodReply).
package stages

import (
	"encoding/json"
	"fmt"

	"docsuite/pkg/geom"
)

// Stage names; bus.Subject turns them into NATS subjects.
const (
	Crop     = "crop"
	Classify = "classify"
	Orient   = "orient"
	OCR      = "ocr"
	Fraud    = "fraud"
)

// Decode carries the request's decoding parameters to the cropper.
type Decode struct {
	DPI              int   `json:"dpi"`
	Quality          int   `json:"quality"`
	PDFRawImages     bool  `json:"pdf_raw_images"`
	AutoPDFRawImages bool  `json:"auto_pdf_raw_images"`
	MaxPages         int   `json:"max_pages"`
	MaxPixels        int64 `json:"max_pixels"`
	MaxFilePixels    int64 `json:"max_file_pixels"`
}

// CropRequest asks the cropper to decode one page of a stored input and
// cut out every document on it.
type CropRequest struct {
	TaskID   string `json:"task_id"`
	InputKey string `json:"input_key"`
	Page     int    `json:"page"` // 0-based
	Decode   Decode `json:"decode"`
	// Simple selects the classical OpenCV cropper.
	Simple bool `json:"simple"`
	// WholePage skips cutting: the page is one document (mode=classify_only).
	WholePage bool `json:"whole_page"`
}

// Quality is the per-crop image-quality measurement; the thresholds of the
// request turn it into flags.
type Quality struct {
	ExposureHigh float64 `json:"exposure_high"`
	ExposureLow  float64 `json:"exposure_low"`
	Sharpness    float64 `json:"sharpness"`
	ShortSide    int     `json:"short_side"`
}

// Found is one document cut from a page.
type Found struct {
	// Quad is where the crop's corners lie on the page, in the order
	// TL, TR, BL, BR of the crop as cut (before orientation).
	Quad    geom.Quad `json:"quad"`
	CropKey string    `json:"crop_key"`
	Width   int       `json:"width"`
	Height  int       `json:"height"`
	Quality Quality   `json:"quality"`
	// WholePage is true when nothing document-like was found and the page
	// itself is the item.
	WholePage bool `json:"whole_page"`
}

// CropReply lists the documents of one page.
type CropReply struct {
	PagesTotal int     `json:"pages_total"`
	PageWidth  int     `json:"page_width"`
	PageHeight int     `json:"page_height"`
	Docs       []Found `json:"docs"`
}

// ClassifyRequest asks for the type of one crop.
type ClassifyRequest struct {
	CropKey string `json:"crop_key"`
	// Pixels, when set, is the crop's width times its height (from
	// Found): a worker that works on one large crop at a time makes a
	// large one wait its turn before reading it.
	Pixels int `json:"pixels,omitempty"`
	// DocTypes restricts the answer to these types plus the special
	// classes; empty means every type.
	DocTypes []string `json:"doc_types,omitempty"`
}

// Score is one type's probability.
type Score struct {
	Type        string  `json:"type"`
	Probability float64 `json:"probability"`
}

// ClassifyReply is the decided type and the runners-up.
type ClassifyReply struct {
	Type       string  `json:"type"`
	Confidence float64 `json:"confidence"`
	Top        []Score `json:"top"`
	// Rotation, when set, is the orientation the classifier found while
	// reading the document's text (it turns the crop upright to read its
	// machine-readable zone); the pipeline hands it to the orienter so the
	// crop is not read twice.
	Rotation           *geom.Rotation `json:"rotation,omitempty"`
	RotationConfidence float64        `json:"rotation_confidence,omitempty"`
	// TextLines, when set, is the number of text lines the classifier
	// found on the crop (unset when its text evidence is off); the
	// pipeline takes a cut piece without any for no document of its own
	// (see pipeline.junkPages).
	TextLines *int `json:"text_lines,omitempty"`
}

// OrientRequest asks for the orientation of one crop and, when JPEGKey is
// set, for the upright crop written there as JPEG.
type OrientRequest struct {
	CropKey string `json:"crop_key"`
	// Pixels, when set, is the crop's size, as in ClassifyRequest.
	Pixels int `json:"pixels,omitempty"`
	// Fixed skips the model: special classes are never turned.
	Fixed bool `json:"fixed"`
	// Known, when set, is the orientation already found (by the
	// classifier), used instead of running the models again.
	Known           *geom.Rotation `json:"known,omitempty"`
	KnownConfidence float64        `json:"known_confidence,omitempty"`
	JPEGKey         string         `json:"jpeg_key,omitempty"`
	JPEGQuality     int            `json:"jpeg_quality,omitempty"`
}

// OrientReply is the rotation code that makes the crop upright.
type OrientReply struct {
	Rotation   geom.Rotation `json:"rotation"`
	Confidence float64       `json:"confidence"`
}

// MethodRequest hands a whole method (recognize, fraud, fulltext) to the
// stage that serves it; the reply is the method's response body.
type MethodRequest struct {
	Method   string `json:"method"`
	TaskID   string `json:"task_id"`
	InputKey string `json:"input_key"`
	Size     int64  `json:"size"`
	Params   any    `json:"params"`
	// MaxPages, MaxPixels and MaxFilePixels are the deployment's decoding
	// limits.
	MaxPages      int   `json:"max_pages"`
	MaxPixels     int64 `json:"max_pixels"`
	MaxFilePixels int64 `json:"max_file_pixels"`
}

// MethodReply is a method stage's answer: the method's response body, or,
// when the body is too large for one bus message (the crops of a large
// photo, the text of a long file), BodyKey, the object-store key the
// worker put it under for the caller to read and delete.
type MethodReply struct {
	Body    json.RawMessage `json:"body,omitempty"`
	BodyKey string          `json:"body_key,omitempty"`
}

// UnmarshalJSON reads a method stage's reply, and also what a worker of a
// release before 2026-12-03 answered instead: the bare response body,
// which is taken as Body. Read as a MethodReply, such a body had neither
// field, and a gateway of a later release beside that worker answered 200
// with a null body. A reply is this release's when it is an object whose
// every key is body or body_key; a response body always holds other keys
// (task_id, code, message).
func (r *MethodReply) UnmarshalJSON(b []byte) error {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return fmt.Errorf("stages: method reply: %w", err)
	}
	wrapped := len(keys) > 0
	for k := range keys {
		wrapped = wrapped && (k == "body" || k == "body_key")
	}
	if !wrapped && len(keys) > 0 {
		*r = MethodReply{Body: append(json.RawMessage(nil), b...)}
		return nil
	}
	type reply MethodReply // without this method
	var out reply
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("stages: method reply: %w", err)
	}
	*r = MethodReply(out)
	return nil
}

// MethodStage is the stage serving a method.
func MethodStage(method string) string {
	if method == "fraud" {
		return Fraud
	}
	return OCR
}
