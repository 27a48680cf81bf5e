// Package fakecheck looks for traces of digital editors in a file's
// metadata: the check_fake option of the classify API.
//
// It reads, from the raw bytes and without decoding any pixels: EXIF
// Software (0x0131) and ProcessingSoftware (0x000B) in JPEG APP1, TIFF and
// HEIC files; XMP packets (xmp:CreatorTool, photoshop:* properties,
// xmpMM:History software agents); Photoshop image resource blocks (JPEG
// APP13 "Photoshop 3.0"); PNG text chunks (Software, Comment and embedded
// XMP); and the PDF Info dictionary (Producer, Creator, CreationDate,
// ModDate).
//
// The verdict: Fake is true when any trace names an editor of the list in
// editors.json (a "neutral" entry such as a scanner driver, a converter or
// Acrobat Distiller is never an editor), or when a PDF was modified more
// than a minute after its creation through an incremental update (more
// than one %%EOF). A PDF whose ModDate alone differs is reported as a
// reason without making the file fake, since many producers write both
// dates at different moments. Camera and scanner originals carry no such
// trace and come out false.
package fakecheck

import (
	_ "embed"
	"encoding/json"
	"strings"
)

// Reason is one trace found.
type Reason struct {
	// Source is where it was found: exif, xmp, photoshop_irb, png_text or pdf_info.
	Source string `json:"source"`
	// Field is the metadata field, e.g. Software, CreatorTool, Producer.
	Field string `json:"field"`
	// Value is the field's value (at most 200 characters).
	Value string `json:"value"`
	// Editor is the canonical editor name, empty for traces that name none.
	Editor string `json:"editor,omitempty"`
}

// Result is the verdict on one file.
type Result struct {
	Fake    bool
	Reasons []Reason
}

//go:embed editors.json
var editorsJSON []byte

type editor struct {
	Name  string   `json:"name"`
	Match []string `json:"match"`
}

type editorList struct {
	Editors []editor `json:"editors"`
	Neutral []string `json:"neutral"`
}

// list is parsed once from the embedded, read-only data file.
var list = func() editorList {
	var l editorList
	if err := json.Unmarshal(editorsJSON, &l); err != nil {
		panic("fakecheck: editors.json: " + err.Error())
	}
	return l
}()

// editorOf names the editor a metadata value points at, or "".
func editorOf(value string) string {
	v := strings.ToLower(value)
	for _, n := range list.Neutral {
		if strings.Contains(v, n) {
			return ""
		}
	}
	for _, e := range list.Editors {
		for _, m := range e.Match {
			if strings.Contains(v, m) {
				return e.Name
			}
		}
	}
	return ""
}

// Check inspects a file's bytes. It never fails: unreadable metadata
// simply yields no reasons.
func Check(data []byte) Result {
	var c collector
	switch {
	case len(data) >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF:
		c.jpeg(data)
	case strings.HasPrefix(string(data[:min(len(data), 8)]), "\x89PNG\r\n\x1a\n"):
		c.png(data)
	case strings.HasPrefix(string(data[:min(len(data), 4)]), "II*\x00"), strings.HasPrefix(string(data[:min(len(data), 4)]), "MM\x00*"):
		c.exif(data)
		c.xmp(data)
	case strings.Contains(string(data[:min(len(data), 1024)]), "%PDF-"):
		c.pdf(data)
		c.xmp(data)
	default:
		// HEIC/HEIF and anything else: EXIF inside an Exif item and XMP
		// packets are found by scanning the bytes.
		if i := strings.Index(string(data[:min(len(data), 1<<20)]), "Exif\x00\x00"); i >= 0 {
			c.exif(data[i+6:])
		}
		c.xmp(data)
	}
	return c.result()
}

// collector gathers reasons without duplicates.
type collector struct {
	reasons  []Reason
	seen     map[Reason]bool
	modified bool // a PDF incrementally updated after creation
}

func (c *collector) add(source, field, value string) {
	value = strings.TrimSpace(strings.Trim(value, "\x00"))
	if value == "" {
		return
	}
	if len(value) > 200 {
		value = value[:200]
	}
	r := Reason{Source: source, Field: field, Value: value, Editor: editorOf(value)}
	if c.seen == nil {
		c.seen = map[Reason]bool{}
	}
	if !c.seen[r] {
		c.seen[r] = true
		c.reasons = append(c.reasons, r)
	}
}

// note records a trace that is telling in itself (a Photoshop resource
// block) under a fixed editor.
func (c *collector) note(source, field, value, editor string) {
	r := Reason{Source: source, Field: field, Value: value, Editor: editor}
	if c.seen == nil {
		c.seen = map[Reason]bool{}
	}
	if !c.seen[r] {
		c.seen[r] = true
		c.reasons = append(c.reasons, r)
	}
}

func (c *collector) result() Result {
	res := Result{Reasons: c.reasons, Fake: c.modified}
	for _, r := range c.reasons {
		if r.Editor != "" {
			res.Fake = true
		}
	}
	return res
}
