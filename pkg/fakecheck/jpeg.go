package fakecheck

import (
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf16"
)

// JPEG segment prefixes.
const (
	exifPrefix     = "Exif\x00\x00"
	xmpPrefix      = "http://ns.adobe.com/xap/1.0/\x00"
	xmpExtPrefix   = "http://ns.adobe.com/xmp/extension/\x00"
	photoshopIRB   = "Photoshop 3.0\x00"
	duckyPrefix    = "Ducky"
	maxIFDEntries  = 1000
	maxIRBBlocks   = 1000
	maxNameInValue = 80
)

// jpeg walks the markers up to the start of the first scan.
func (c *collector) jpeg(data []byte) {
	var (
		dqt [4][]byte
		sub string
	)
	pos := 2
	for pos+4 <= len(data) {
		if data[pos] != 0xFF {
			break
		}
		marker := data[pos+1]
		if marker == 0xFF { // fill byte
			pos++
			continue
		}
		if marker == 0xD8 || marker == 0x01 || marker >= 0xD0 && marker <= 0xD7 {
			pos += 2 // markers without a length
			continue
		}
		if marker == 0xDA || marker == 0xD9 {
			break
		}
		n := int(binary.BigEndian.Uint16(data[pos+2 : pos+4]))
		if n < 2 || pos+2+n > len(data) {
			break
		}
		seg := data[pos+4 : pos+2+n]
		switch {
		case marker == 0xE1 && hasPrefix(seg, exifPrefix):
			c.tiff(seg[len(exifPrefix):], "exif")
		case marker == 0xE1 && hasPrefix(seg, xmpPrefix):
			c.xmpPacket(seg[len(xmpPrefix):])
		case marker == 0xE1 && hasPrefix(seg, xmpExtPrefix):
			c.xmpPacket(seg[len(xmpExtPrefix):])
		case marker == 0xED && hasPrefix(seg, photoshopIRB):
			c.irb(seg[len(photoshopIRB):])
		case marker == 0xEC && hasPrefix(seg, duckyPrefix):
			c.add("jpeg_app12", "Ducky", "APP12 Ducky segment of Save for Web", "Adobe Photoshop")
		case marker == 0xFE && c.spend():
			c.value("jpeg_comment", "Comment", string(seg[:min(len(seg), 4*maxValue)]))
		case marker == 0xDB && len(seg) > 0:
			if i := seg[0] & 0x0F; i < 4 {
				dqt[i] = seg
			}
		case marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
			if sub == "" {
				sub = sampling(seg)
			}
		}
		pos += 2 + n
	}
	if sub == "" {
		return
	}
	c.dqtKey = dqtDigest(dqt) + ":" + sub
	if e, ok := c.k.dqt[c.dqtKey]; ok {
		c.add("jpeg_quantization", "DQT", e.Label, e.Editor)
	}
}

// sampling writes the sampling factors of a frame header's components as
// hex, the way ExifTool keys its JPEGDigest table ("221111" for 4:2:0).
func sampling(sof []byte) string {
	if len(sof) < 6 {
		return ""
	}
	n := int(sof[5])
	if (n != 1 && n != 3) || len(sof) < 6+3*n {
		return ""
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%02x", sof[7+3*i])
	}
	return b.String()
}

// dqtDigest is ExifTool's JPEGDigest: the MD5 of the DQT segments, indexed
// by the first table of each, joined by zero bytes.
func dqtDigest(dqt [4][]byte) string {
	h := md5.New()
	first := true
	for _, seg := range dqt {
		if seg == nil {
			continue
		}
		if !first {
			h.Write([]byte{0})
		}
		first = false
		h.Write(seg)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// irbIPTC holds the image resources that programs other than Photoshop
// write when they store IPTC data: IPTC-NAA, its digest, the copyright
// flag, the URL, and embedded EXIF and XMP.
var irbIPTC = map[uint16]bool{0x0404: true, 0x0425: true, 0x040A: true, 0x040B: true, 0x0422: true, 0x0424: true}

// irb reads a sequence of Photoshop image resource blocks.
func (c *collector) irb(b []byte) {
	if !c.spend() || !c.enter() {
		return
	}
	defer c.leave()
	var (
		other  []string
		writer string
	)
	for blocks := 0; len(b) >= 12 && blocks < maxIRBBlocks; blocks++ {
		if string(b[:4]) != "8BIM" {
			break
		}
		id := binary.BigEndian.Uint16(b[4:6])
		nameLen := 1 + int(b[6])
		nameLen += nameLen & 1
		if 6+nameLen+4 > len(b) {
			break
		}
		size := uint64(binary.BigEndian.Uint32(b[6+nameLen : 10+nameLen]))
		start := uint64(10 + nameLen)
		if start+size > uint64(len(b)) {
			break
		}
		body := b[start : start+size]
		switch {
		case id == 0x0421:
			writer = versionWriter(body)
		case id == 0x0424:
			c.xmpPacket(body)
		case id == 0x0422:
			c.tiff(body, "exif")
		}
		if !irbIPTC[id] && len(other) < 16 {
			other = append(other, fmt.Sprintf("0x%04X", id))
		}
		next := start + size + size&1
		if next > uint64(len(b)) {
			break
		}
		b = b[next:]
	}
	if len(other) == 0 {
		return
	}
	if writer != "" {
		// The writer named itself: it is a trace only when it is an editor.
		c.value("photoshop_irb", "VersionInfo", writer)
		return
	}
	c.add("photoshop_irb", "8BIM", "Photoshop image resources "+strings.Join(other, ","), "Adobe Photoshop")
}

// versionWriter reads the writer name of a VersionInfo resource: a 4-byte
// version, a flag byte, then a Unicode string (a 4-byte length in UTF-16
// units and the big-endian units).
func versionWriter(b []byte) string {
	if len(b) < 9 {
		return ""
	}
	n := uint64(binary.BigEndian.Uint32(b[5:9]))
	n = min(n, maxNameInValue, uint64(len(b)-9)/2)
	u := make([]uint16, n)
	for i := range u {
		u[i] = binary.BigEndian.Uint16(b[9+2*i:])
	}
	return strings.TrimRight(string(utf16.Decode(u)), "\x00")
}

// tiff reads Software, ProcessingSoftware, XMP (tag 700) and Photoshop
// resources (tag 34377) from the first IFD of a TIFF structure.
func (c *collector) tiff(t []byte, source string) {
	if len(t) < 8 || !c.spend() || !c.enter() {
		return
	}
	defer c.leave()
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return
	}
	off := uint64(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > uint64(len(t)) {
		return
	}
	n := int(bo.Uint16(t[off : off+2]))
	for i := 0; i < n && i < maxIFDEntries; i++ {
		e := off + 2 + 12*uint64(i)
		if e+12 > uint64(len(t)) {
			return
		}
		tag, typ := bo.Uint16(t[e:e+2]), bo.Uint16(t[e+2:e+4])
		if typ != 1 && typ != 2 && typ != 7 { // BYTE, ASCII, UNDEFINED
			continue
		}
		count := uint64(bo.Uint32(t[e+4 : e+8]))
		var val []byte
		if count <= 4 {
			val = t[e+8 : e+8+count]
		} else {
			p := uint64(bo.Uint32(t[e+8 : e+12]))
			if p+count > uint64(len(t)) {
				continue
			}
			val = t[p : p+count]
		}
		switch tag {
		case 0x0131:
			c.value(source, "Software", string(val[:min(len(val), 4*maxValue)]))
		case 0x000B:
			c.value(source, "ProcessingSoftware", string(val[:min(len(val), 4*maxValue)]))
		case 0x02BC:
			c.xmpPacket(val)
		case 0x8649:
			c.irb(val)
		}
	}
}
