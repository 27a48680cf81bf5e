// Package fakecheck looks for traces of digital image and PDF editors in a
// file's raw bytes. It serves the check_fake=true option of the classify
// API.
//
// Without decoding any pixels it reads:
//
//   - EXIF Software (0x0131) and ProcessingSoftware (0x000B) in JPEG APP1,
//     TIFF, HEIC/AVIF, WebP and PNG eXIf, with a small TIFF-IFD reader of
//     its own;
//   - XMP packets: xmp:CreatorTool, tiff:Software, pdf:Producer, the
//     softwareAgent of every xmpMM:History event, and the Photoshop-only
//     properties photoshop:ColorMode, photoshop:ICCProfile,
//     photoshop:History, photoshop:DocumentAncestors and
//     photoshop:TextLayers (the photoshop namespace as such is not a trace:
//     IPTC Core properties such as photoshop:City live in it and many
//     programs write them);
//   - Photoshop image resource blocks (JPEG APP13 "Photoshop 3.0", TIFF tag
//     34377): blocks holding only what other programs write there too
//     (IPTC-NAA 0x0404 and its digest 0x0425, the copyright flag and URL,
//     embedded EXIF and XMP) are not a trace; any other resource is,
//     attributed to the writer named in VersionInfo (0x0421) when there is
//     one (a writer that is no editor is no trace) and to Adobe Photoshop
//     otherwise;
//   - the APP12 "Ducky" segment of Photoshop's Save for Web, and JPEG COM
//     comments (GIMP writes "Created with GIMP");
//   - JPEG quantization tables: the MD5 digest of the DQT segments, computed
//     as ExifTool's JPEGDigest does, is looked up in dqt.json, which holds
//     the Adobe Photoshop (Save As, Save for Web) and Lightroom export tables
//     of ExifTool's JPEGDigest.pm (tested there against those programs).
//     The Photoshop Express entry is left out because Canon ZoomBrowser,
//     Sony Image Data Suite and the Pentax K10D use the same table;
//   - PNG tEXt, zTXt and iTXt chunks (Software, Comment, Source and the XMP
//     of "XML:com.adobe.xmp"), including the hex "Raw profile type exif/xmp"
//     chunks ImageMagick writes when it converts a file;
//   - the PDF Info dictionary (Producer, Creator, CreationDate, ModDate) in
//     literal or hex strings, UTF-16BE with a byte order mark included, also
//     inside Flate-compressed object streams, and the PDF's XMP metadata.
//
// Every metadata value is matched against the editor list of editors.json:
// lower-case patterns found at a word start and not running on into a longer
// word (so "canva" does not match "canvas"), with a "neutral" list that
// always wins (converters, print drivers, scanner and OCR software, and
// libraries such as Adobe PDF Library are not editors: converting a file is
// not forging it). Adobe Acrobat counts as an editor when Acrobat Pro or
// Standard itself saved the file; its conversion parts (Distiller,
// PDFMaker, the Image Conversion, Paper Capture and Web Capture plug-ins,
// Acrobat Scan) and Reader do not. Only values that name an editor become
// reasons; camera firmware such as "HDR+ 1.0" or "Canon EOS" yields none.
//
// The verdict: Fake is true when a reason names an editor, or when a PDF
// has ModDate more than 60 seconds after CreationDate and was saved again
// through an incremental update (more "%%EOF" markers than its structure
// needs: one, or two for a linearized file). A later ModDate alone is
// reported as a reason with an empty Editor without making the file fake,
// since many producers write the two dates at different moments.
//
// The lists are read once, by New, into a Checker that the caller keeps
// and shares; the package holds no mutable state of its own.
//
// Check is bounded: it walks a file's structure or scans its bytes once or
// twice, decodes at most 4096 metadata items, decompresses at most 64
// streams and 8 MiB in total, allocates no more than about the file's size
// even on crafted input, and never panics.
package fakecheck

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
)

// Reason is one trace found.
type Reason struct {
	// Source is where the trace was found: exif, heic_exif, xmp,
	// photoshop_irb, jpeg_app12, jpeg_comment, jpeg_quantization,
	// png_text or pdf_info.
	Source string `json:"source"`
	// Field is the metadata field, e.g. Software, CreatorTool,
	// xmpMM:History, Producer or ModDate.
	Field string `json:"field"`
	// Value is the value found, cut to at most 200 bytes.
	Value string `json:"value"`
	// Editor is the canonical editor name from editors.json; it is ""
	// (and still sent: clients read it on every reason) for traces that
	// name no editor, such as a modification after creation.
	Editor string `json:"editor"`
}

// Result is the verdict on one file.
type Result struct {
	// Fake is true when the file carries a trace of an editor (see the
	// package documentation for the exact rule).
	Fake bool
	// Reasons lists the traces found, in the order they were found.
	Reasons []Reason
}

// maxValue is the longest value a Reason keeps.
const maxValue = 200

//go:embed editors.json
var editorsJSON []byte

//go:embed dqt.json
var dqtJSON []byte

type editor struct {
	Name   string   `json:"name"`
	Match  []string `json:"match"`
	Except []string `json:"except"`
}

type dqtEntry struct {
	Digest string `json:"digest"`
	Editor string `json:"editor"`
	Label  string `json:"label"`
}

// Checker looks for editor traces with the editor list (editors.json) and
// the editors' JPEG quantization tables (dqt.json) it was built from.
// Build one with New when the program starts and share it: Check is safe
// for concurrent use.
type Checker struct {
	editors []editor
	neutral []string
	dqt     map[string]dqtEntry
}

// New builds a Checker from the editor list and the quantization tables
// embedded in the package.
func New() (*Checker, error) {
	var l struct {
		Editors []editor `json:"editors"`
		Neutral []string `json:"neutral"`
	}
	if err := json.Unmarshal(editorsJSON, &l); err != nil {
		return nil, fmt.Errorf("fakecheck: read editors.json: %w", err)
	}
	var d struct {
		Tables []dqtEntry `json:"tables"`
	}
	if err := json.Unmarshal(dqtJSON, &d); err != nil {
		return nil, fmt.Errorf("fakecheck: read dqt.json: %w", err)
	}
	k := &Checker{editors: l.Editors, neutral: l.Neutral, dqt: make(map[string]dqtEntry, len(d.Tables))}
	for _, e := range d.Tables {
		k.dqt[e.Digest] = e
	}
	return k, nil
}

// editorOf returns the canonical name of the editor a metadata value names,
// or "" when it names none or names a neutral tool.
func (k *Checker) editorOf(value string) string {
	v := strings.ToLower(value)
	for _, n := range k.neutral {
		if hasWord(v, n) {
			return ""
		}
	}
	for _, e := range k.editors {
		if !anyWord(v, e.Match) || anyWord(v, e.Except) {
			continue
		}
		return e.Name
	}
	return ""
}

func anyWord(v string, patterns []string) bool {
	for _, p := range patterns {
		if hasWord(v, p) {
			return true
		}
	}
	return false
}

// hasWord reports whether p occurs in v starting at a word start and not
// running on into a longer word, so that "canva" does not match "canvas".
func hasWord(v, p string) bool {
	for off := 0; off+len(p) <= len(v); {
		i := strings.Index(v[off:], p)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(p)
		if (i == 0 || !isAlnum(v[i-1])) && (end == len(v) || !isLetter(v[end])) {
			return true
		}
		off = i + 1
	}
	return false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool  { return isLetter(c) || c >= '0' && c <= '9' }

// Check inspects a file's bytes. It never fails: unreadable metadata
// simply yields no reasons.
func (k *Checker) Check(data []byte) Result {
	c := collector{k: k, budget: inflateBudget}
	switch {
	case hasPrefix(data, "\xFF\xD8\xFF"):
		c.jpeg(data)
	case hasPrefix(data, "\x89PNG\r\n\x1a\n"):
		c.png(data)
	case hasPrefix(data, "II*\x00"), hasPrefix(data, "MM\x00*"):
		c.tiff(data, "exif")
	case isPDF(data):
		c.pdf(data)
	case len(data) >= 12 && hasPrefix(data, "RIFF") && string(data[8:12]) == "WEBP":
		c.webp(data)
	case isHEIF(data):
		c.heif(data)
	default:
		// GIF, DJVU and anything else: only XMP packets can be found.
		c.xmpScan(data)
	}
	return c.result()
}

func hasPrefix(b []byte, p string) bool {
	return len(b) >= len(p) && string(b[:len(p)]) == p
}

// collector gathers reasons without duplicates.
type collector struct {
	// k holds the editor list and quantization tables.
	k       *Checker
	reasons []Reason
	// modified is set for a PDF saved again after its creation.
	modified bool
	// budget is what decompression may still produce, in bytes.
	budget int
	// items counts the metadata items decoded so far.
	items int
	// inflates counts the streams decompressed so far.
	inflates int
	// dqtKey is a JPEG's quantization digest with its sampling factors.
	dqtKey string
	// depth counts nested containers (EXIF in resource blocks in EXIF).
	depth int
}

// maxDepth bounds the nesting of containers inside one another.
const maxDepth = 4

func (c *collector) enter() bool {
	if c.depth >= maxDepth {
		return false
	}
	c.depth++
	return true
}

func (c *collector) leave() { c.depth-- }

// maxItems bounds how many metadata items (strings, comments, text
// chunks, XMP packets, IFDs, resource blocks) one file may have decoded,
// which bounds the work and the memory spent on a file crafted with
// millions of tiny items.
const maxItems = 4096

// spend reports whether one more metadata item may be decoded.
func (c *collector) spend() bool {
	c.items++
	return c.items <= maxItems
}

// value records a metadata value when it names an editor.
func (c *collector) value(source, field, v string) {
	if ed := c.k.editorOf(v); ed != "" {
		c.add(source, field, v, ed)
	}
}

// add records a reason once.
func (c *collector) add(source, field, v, editor string) {
	v = strings.TrimSpace(strings.Trim(v, "\x00"))
	if len(v) > maxValue {
		v = v[:maxValue]
	}
	v = strings.ToValidUTF8(v, "")
	r := Reason{Source: source, Field: field, Value: v, Editor: editor}
	for _, o := range c.reasons {
		if o == r {
			return
		}
	}
	if len(c.reasons) < 64 {
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
