package fakecheck

import (
	"bytes"
	"fmt"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// PDF scanning limits.
const (
	maxPDFString  = 4096 // raw bytes of one string value
	dictLookBack  = 1024 // bytes before a /Type key searched for its object
	streamLookAhd = 2048 // bytes after a /Type key searched for "stream"
	// maxStreamTries bounds the /ObjStm and /Metadata names looked at.
	maxStreamTries = 256
	modifiedAfter  = time.Minute
)

// isPDF reports whether the header "%PDF-" is in the first kilobyte.
func isPDF(data []byte) bool {
	return bytes.Contains(data[:min(len(data), 1024)], []byte("%PDF-"))
}

// pdfState is what the scan of one PDF collects.
type pdfState struct {
	created, modified  time.Time
	createdRaw, modRaw string
	eofs               int
	linearized         bool
	packets            int
	streamTries        int
}

// pdf scans a PDF's bytes once for Info dictionary entries, XMP packets,
// %%EOF markers and Flate-compressed object and metadata streams (which are
// inflated and scanned for the same entries), then applies the rule on
// modification after creation.
func (c *collector) pdf(data []byte) {
	var s pdfState
	c.pdfScan(data, &s, true)
	if s.created.IsZero() || s.modified.Sub(s.created) <= modifiedAfter {
		return
	}
	d := s.modified.Sub(s.created).Round(time.Second)
	c.add("pdf_info", "ModDate", fmt.Sprintf("ModDate %s is %s after CreationDate %s", s.modRaw, d, s.createdRaw), "")
	expected := 1
	if s.linearized {
		expected = 2
	}
	if s.eofs > expected {
		c.modified = true
		c.add("pdf_info", "%%EOF", fmt.Sprintf("%d %%%%EOF markers: saved again by an incremental update", s.eofs), "")
	}
}

// pdfScan walks b byte by byte. At the top level it also counts %%EOF and
// inflates streams; inside an inflated object stream it only reads
// entries.
func (c *collector) pdfScan(b []byte, s *pdfState, top bool) {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '/':
			i = c.pdfKey(b, i, s, top)
		case '%':
			if top && hasPrefix(b[i:], "%%EOF") {
				s.eofs++
				i += 4
			}
		case '<':
			if !hasPrefix(b[i:], "<x:xmpmeta") && !hasPrefix(b[i:], "<x:xapmeta") || s.packets >= maxXMPPackets {
				continue
			}
			s.packets++
			end := bytes.Index(b[i:], []byte("</x:x"))
			if end < 0 {
				c.xmpPacket(b[i:])
				return
			}
			c.xmpPacket(b[i : i+end])
			i += end
		}
	}
}

// pdfKey handles the name starting at b[i] and returns the index of the
// last byte consumed.
func (c *collector) pdfKey(b []byte, i int, s *pdfState, top bool) int {
	name := b[i+1:]
	if len(name) == 0 || !strings.ContainsRune("PCMLO", rune(name[0])) {
		return i
	}
	key := ""
	for _, k := range []string{"Producer", "Creator", "CreationDate", "ModDate", "Linearized", "ObjStm", "Metadata"} {
		if hasPrefix(name, k) && (len(name) == len(k) || isDelim(name[len(k)])) {
			key = k
			break
		}
	}
	switch key {
	case "":
		return i
	case "Linearized":
		s.linearized = s.linearized || i < 1024
		return i + len(key)
	case "ObjStm", "Metadata":
		if top {
			c.pdfStream(b, i, key, s)
		}
		return i + len(key)
	}
	raw, end := pdfString(b, i+1+len(key))
	if raw == nil || (key == "Producer" || key == "Creator") && !c.spend() {
		// Dates are decoded always: their work is linear in the file.
		return end
	}
	text := pdfText(raw)
	switch key {
	case "Producer", "Creator":
		c.value("pdf_info", key, text[:min(len(text), 4*maxValue)])
	case "CreationDate":
		if t, ok := parsePDFDate(text); ok && (s.created.IsZero() || t.Before(s.created)) {
			s.created, s.createdRaw = t, text
		}
	case "ModDate":
		if t, ok := parsePDFDate(text); ok && t.After(s.modified) {
			s.modified, s.modRaw = t, text
		}
	}
	return end
}

func isDelim(ch byte) bool {
	switch ch {
	case ' ', '\t', '\r', '\n', '\f', 0, '(', ')', '<', '>', '[', ']', '/', '{', '}', '%':
		return true
	}
	return false
}

// pdfStream inflates the Flate-compressed stream of the object whose
// dictionary holds the name at b[i] (/Type /ObjStm or /Type /Metadata) and
// scans what comes out.
func (c *collector) pdfStream(b []byte, i int, key string, s *pdfState) {
	if c.budget <= 0 || c.inflates >= maxInflates || s.streamTries >= maxStreamTries {
		return
	}
	s.streamTries++
	lo := max(0, i-dictLookBack)
	if j := bytes.LastIndex(b[lo:i], []byte("obj")); j >= 0 {
		lo += j
	}
	hi := bytes.Index(b[i:min(len(b), i+streamLookAhd)], []byte("stream"))
	if hi < 0 {
		return
	}
	hi += i
	dict := b[lo:hi]
	if bytes.Contains(b[i:hi], []byte("endobj")) || !bytes.Contains(dict, []byte("/FlateDecode")) {
		return // a reference such as /Metadata 5 0 R, or not compressed
	}
	start := hi + len("stream")
	if hasPrefix(b[start:], "\r\n") {
		start += 2
	} else if hasPrefix(b[start:], "\n") || hasPrefix(b[start:], "\r") {
		start++
	}
	out := c.inflate(b[start:])
	if key == "ObjStm" {
		c.pdfScan(out, s, false)
	} else {
		c.xmpScan(out)
	}
}

// pdfString returns the raw string (with its delimiters) that starts after
// optional white space at b[i], and the index of its last byte. When no
// string is there it returns nil and the index of the last byte looked at,
// so that the scan never reads the same bytes twice.
func pdfString(b []byte, i int) ([]byte, int) {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n' || b[i] == '\f') {
		i++
	}
	if i >= len(b) {
		return nil, len(b) - 1
	}
	limit := min(len(b), i+maxPDFString)
	switch {
	case b[i] == '(':
		depth := 0
		for j := i; j < limit; j++ {
			switch b[j] {
			case '\\':
				j++
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					return b[i : j+1], j
				}
			}
		}
	case b[i] == '<' && i+1 < len(b) && b[i+1] != '<':
		if j := bytes.IndexByte(b[i:limit], '>'); j >= 0 {
			return b[i : i+j+1], i + j
		}
	default:
		return nil, i - 1 // not a string: b[i] is scanned as usual
	}
	return nil, limit - 1
}

// pdfText decodes a literal "(...)" or hex "<...>" string: UTF-16BE or
// UTF-8 with a byte order mark, else PDFDocEncoding read as Latin-1.
func pdfText(raw []byte) string {
	b := make([]byte, 0, len(raw))
	if raw[0] == '(' {
		s := raw[1 : len(raw)-1]
		for i := 0; i < len(s); i++ {
			if s[i] != '\\' || i+1 == len(s) {
				b = append(b, s[i])
				continue
			}
			i++
			switch ch := s[i]; {
			case ch >= '0' && ch <= '7':
				v := 0
				for k := 0; k < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7'; k++ {
					v = v*8 + int(s[i]-'0')
					i++
				}
				i--
				b = append(b, byte(v))
			case ch == 'n' || ch == 'r' || ch == 't' || ch == 'b' || ch == 'f':
				b = append(b, ' ')
			case ch == '\r' || ch == '\n':
				// a line continuation
			default:
				b = append(b, ch)
			}
		}
	} else {
		var hi byte
		half := false
		for _, ch := range raw[1 : len(raw)-1] {
			v, ok := unhex(ch)
			if !ok {
				continue
			}
			if half {
				b = append(b, hi<<4|v)
			} else {
				hi = v
			}
			half = !half
		}
		if half {
			b = append(b, hi<<4)
		}
	}
	switch {
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		u := make([]uint16, 0, len(b)/2)
		for i := 2; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
		return string(utf16.Decode(u))
	case len(b) >= 3 && string(b[:3]) == "\xEF\xBB\xBF" && utf8.Valid(b[3:]):
		return string(b[3:])
	}
	var sb strings.Builder
	sb.Grow(len(b))
	for _, x := range b {
		sb.WriteRune(rune(x))
	}
	return sb.String()
}

func unhex(ch byte) (byte, bool) {
	switch {
	case ch >= '0' && ch <= '9':
		return ch - '0', true
	case ch >= 'a' && ch <= 'f':
		return ch - 'a' + 10, true
	case ch >= 'A' && ch <= 'F':
		return ch - 'A' + 10, true
	}
	return 0, false
}

// parsePDFDate reads "D:YYYYMMDDHHmmSSOHH'mm'" where everything after the
// year is optional and O is +, - or Z.
func parsePDFDate(s string) (time.Time, bool) {
	if len(s) >= 2 && s[:2] == "D:" {
		s = s[2:]
	}
	f := [6]int{0, 1, 1, 0, 0, 0}
	widths := [6]int{4, 2, 2, 2, 2, 2}
	for k, w := range widths {
		if len(s) < w || !digits(s[:w]) {
			if k == 0 {
				return time.Time{}, false
			}
			break
		}
		f[k] = atoi(s[:w])
		s = s[w:]
	}
	loc := time.UTC
	if len(s) >= 3 && (s[0] == '+' || s[0] == '-') && digits(s[1:3]) {
		off := atoi(s[1:3]) * 3600
		if len(s) >= 6 && s[3] == '\'' && digits(s[4:6]) {
			off += atoi(s[4:6]) * 60
		}
		if s[0] == '-' {
			off = -off
		}
		loc = time.FixedZone("", off)
	}
	return time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, loc), true
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func atoi(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		v = v*10 + int(s[i]-'0')
	}
	return v
}
