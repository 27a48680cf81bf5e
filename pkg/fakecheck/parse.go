package fakecheck

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"
	"unicode/utf16"
)

// jpeg walks the markers up to the start of scan.
func (c *collector) jpeg(data []byte) {
	pos := 2
	for pos+4 <= len(data) {
		if data[pos] != 0xFF {
			return
		}
		marker := data[pos+1]
		if marker == 0xFF {
			pos++
			continue
		}
		if marker == 0xDA || marker == 0xD9 {
			return
		}
		n := int(binary.BigEndian.Uint16(data[pos+2 : pos+4]))
		if n < 2 || pos+2+n > len(data) {
			return
		}
		seg := data[pos+4 : pos+2+n]
		switch {
		case marker == 0xE1 && bytes.HasPrefix(seg, []byte("Exif\x00\x00")):
			c.exif(seg[6:])
		case marker == 0xE1 && bytes.HasPrefix(seg, []byte("http://ns.adobe.com/xap/1.0/\x00")):
			c.xmp(seg)
		case marker == 0xED && bytes.HasPrefix(seg, []byte("Photoshop 3.0\x00")):
			c.irb(seg[14:])
		case marker == 0xFE:
			c.add("jpeg_comment", "Comment", string(seg))
		}
		pos += 2 + n
	}
}

// iptcOnly are the resources IPTC writers (news tools, exiftool, photo
// viewers) put in an APP13 block: IPTC-NAA data and its digest.
var iptcOnly = map[uint16]bool{0x0404: true, 0x0425: true}

// irb walks Photoshop image resource blocks: any resource beyond IPTC
// data (resolution info, version info, thumbnails, slices...) is written
// by Photoshop itself.
func (c *collector) irb(b []byte) {
	for pos := 0; pos+12 <= len(b); {
		if string(b[pos:pos+4]) != "8BIM" {
			return
		}
		id := binary.BigEndian.Uint16(b[pos+4 : pos+6])
		nameLen := int(b[pos+6])
		p := pos + 6 + 1 + nameLen
		if (1+nameLen)%2 == 1 {
			p++
		}
		if p+4 > len(b) {
			return
		}
		size := int(binary.BigEndian.Uint32(b[p : p+4]))
		if !iptcOnly[id] {
			c.note("photoshop_irb", "APP13", fmt.Sprintf("Photoshop image resource 0x%04X", id), "Adobe Photoshop")
			return
		}
		if size < 0 || size > len(b) {
			return
		}
		pos = p + 4 + size + size%2
	}
}

// exif reads Software and ProcessingSoftware from the first IFD of a TIFF
// structure.
func (c *collector) exif(t []byte) {
	if len(t) < 8 {
		return
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return
	}
	off := int(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > len(t) {
		return
	}
	n := int(bo.Uint16(t[off : off+2]))
	for i := 0; i < n && i < 512; i++ {
		e := off + 2 + 12*i
		if e+12 > len(t) {
			return
		}
		tag, typ := bo.Uint16(t[e:e+2]), bo.Uint16(t[e+2:e+4])
		count := int(bo.Uint32(t[e+4 : e+8]))
		if typ != 2 || count <= 0 || count > 1<<16 {
			continue
		}
		var val []byte
		if count <= 4 {
			val = t[e+8 : e+8+count]
		} else {
			p := int(bo.Uint32(t[e+8 : e+12]))
			if p < 0 || p+count > len(t) {
				continue
			}
			val = t[p : p+count]
		}
		switch tag {
		case 0x0131:
			c.add("exif", "Software", string(val))
		case 0x000B:
			c.add("exif", "ProcessingSoftware", string(val))
		}
	}
}

var (
	creatorTool = regexp.MustCompile(`xmp:CreatorTool(?:="([^"]*)"|>([^<]*)<)`)
	agent       = regexp.MustCompile(`stEvt:softwareAgent(?:="([^"]*)"|>([^<]*)<)`)
	pdfProducer = regexp.MustCompile(`pdf:Producer(?:="([^"]*)"|>([^<]*)<)`)
)

// xmp finds XMP packets in the bytes and reads the tools they name.
func (c *collector) xmp(data []byte) {
	rest := data
	for packets := 0; packets < 8; packets++ {
		i := bytes.Index(rest, []byte("<x:xmpmeta"))
		if i < 0 {
			return
		}
		j := bytes.Index(rest[i:], []byte("</x:xmpmeta>"))
		if j < 0 {
			j = min(len(rest)-i, 1<<20)
		}
		c.xmpPacket(rest[i : i+j])
		rest = rest[i+j:]
	}
}

func (c *collector) xmpPacket(p []byte) {
	s := string(p)
	for _, m := range creatorTool.FindAllStringSubmatch(s, 4) {
		c.add("xmp", "CreatorTool", m[1]+m[2])
	}
	for _, m := range agent.FindAllStringSubmatch(s, 16) {
		c.add("xmp", "xmpMM:History softwareAgent", m[1]+m[2])
	}
	for _, m := range pdfProducer.FindAllStringSubmatch(s, 4) {
		c.add("xmp", "pdf:Producer", m[1]+m[2])
	}
	if strings.Contains(s, "xmlns:photoshop=") && (strings.Contains(s, "photoshop:ColorMode") || strings.Contains(s, "photoshop:History")) {
		c.note("xmp", "photoshop namespace", "photoshop:ColorMode/History properties", "Adobe Photoshop")
	}
}

// png reads tEXt, zTXt and iTXt chunks.
func (c *collector) png(data []byte) {
	pos := 8
	for pos+12 <= len(data) {
		n := int(binary.BigEndian.Uint32(data[pos : pos+4]))
		typ := string(data[pos+4 : pos+8])
		if n < 0 || pos+12+n > len(data) {
			return
		}
		body := data[pos+8 : pos+8+n]
		switch typ {
		case "tEXt":
			if k, v, ok := bytes.Cut(body, []byte{0}); ok {
				c.pngText(string(k), v)
			}
		case "zTXt":
			if k, v, ok := bytes.Cut(body, []byte{0}); ok && len(v) > 1 {
				c.pngText(string(k), inflate(v[1:]))
			}
		case "iTXt":
			c.pngIText(body)
		case "IDAT", "IEND":
			if typ == "IEND" {
				return
			}
		}
		pos += 12 + n
	}
}

func (c *collector) pngIText(body []byte) {
	k, rest, ok := bytes.Cut(body, []byte{0})
	if !ok || len(rest) < 2 {
		return
	}
	compressed := rest[0] == 1
	rest = rest[2:]
	// language tag and translated keyword
	for range 2 {
		if _, r, ok := bytes.Cut(rest, []byte{0}); ok {
			rest = r
		} else {
			return
		}
	}
	if compressed {
		rest = inflate(rest)
	}
	c.pngText(string(k), rest)
}

func (c *collector) pngText(key string, value []byte) {
	switch key {
	case "XML:com.adobe.xmp":
		c.xmp(value)
	case "Software", "Comment", "Description", "Author", "Source":
		c.add("png_text", key, string(value))
	}
}

// inflate decompresses at most 1 MB of a zlib stream.
func inflate(b []byte) []byte {
	r, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil
	}
	out, _ := io.ReadAll(io.LimitReader(r, 1<<20))
	return out
}

var (
	pdfString = `\s*(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)`
	pdfField  = regexp.MustCompile(`/(Producer|Creator|CreationDate|ModDate)` + pdfString)
	pdfDate   = regexp.MustCompile(`D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?`)
)

// pdf reads the Info dictionary fields written anywhere in the file
// (uncompressed objects; object streams hide them, XMP then usually says
// the same) and notices modification after creation.
func (c *collector) pdf(data []byte) {
	var created, modified time.Time
	for _, m := range pdfField.FindAllSubmatch(data, 64) {
		v := pdfText(m[2])
		switch string(m[1]) {
		case "Producer", "Creator":
			c.add("pdf_info", string(m[1]), v)
		case "CreationDate":
			if t, ok := parsePDFDate(v); ok && (created.IsZero() || t.Before(created)) {
				created = t
			}
		case "ModDate":
			if t, ok := parsePDFDate(v); ok && t.After(modified) {
				modified = t
			}
		}
	}
	if !created.IsZero() && modified.Sub(created) > time.Minute {
		c.add("pdf_info", "ModDate", "modified "+modified.Sub(created).Round(time.Second).String()+" after creation")
		if bytes.Count(data, []byte("%%EOF")) > 1 {
			c.modified = true
			c.add("pdf_info", "incremental update", "the file was saved again after creation (more than one %%EOF)")
		}
	}
}

// pdfText decodes a PDF literal or hex string (UTF-16BE with a BOM or
// PDFDocEncoding read as Latin-1).
func pdfText(raw []byte) string {
	var b []byte
	if len(raw) >= 2 && raw[0] == '(' {
		s := raw[1 : len(raw)-1]
		for i := 0; i < len(s); i++ {
			if s[i] == '\\' && i+1 < len(s) {
				i++
				switch s[i] {
				case 'n':
					b = append(b, '\n')
				case 'r', 't', 'b', 'f':
					b = append(b, ' ')
				default:
					b = append(b, s[i])
				}
				continue
			}
			b = append(b, s[i])
		}
	} else {
		hex := bytes.Map(func(r rune) rune {
			if r == ' ' || r == '\n' || r == '\r' || r == '\t' || r == '<' || r == '>' {
				return -1
			}
			return r
		}, raw)
		for i := 0; i+1 < len(hex); i += 2 {
			b = append(b, unhex(hex[i])<<4|unhex(hex[i+1]))
		}
	}
	if len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF {
		u := make([]uint16, 0, len(b)/2)
		for i := 2; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
		return string(utf16.Decode(u))
	}
	r := make([]rune, len(b))
	for i, x := range b {
		r[i] = rune(x)
	}
	return string(r)
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 0
}

func parsePDFDate(s string) (time.Time, bool) {
	m := pdfDate.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	num := func(i, def int) int {
		if m[i] == "" {
			return def
		}
		v := 0
		for _, ch := range m[i] {
			v = v*10 + int(ch-'0')
		}
		return v
	}
	return time.Date(num(1, 0), time.Month(num(2, 1)), num(3, 1), num(4, 0), num(5, 0), num(6, 0), 0, time.UTC), true
}
