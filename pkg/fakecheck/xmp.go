package fakecheck

import (
	"bytes"
	"html"
	"regexp"
)

// maxXMPPackets bounds how many packets one file may contribute.
const maxXMPPackets = 16

// xmpTool matches the properties that name a program, written either as an
// attribute (prop="value") or as an element (<prop>value<), under any
// namespace prefix (old Photoshop files use xap: for xmp:).
var xmpTool = regexp.MustCompile(`[A-Za-z]+:(CreatorTool|softwareAgent|Software|Producer)\s*(?:=\s*"([^"]*)"|=\s*'([^']*)'|>([^<]*)<)`)

// xmpPhotoshop matches the photoshop-namespace properties that only
// Photoshop writes.
var xmpPhotoshop = regexp.MustCompile(`photoshop:(ColorMode|ICCProfile|History|DocumentAncestors|TextLayers)\s*[=>]`)

// xmpField names the reason field for each property of xmpTool.
var xmpField = map[string]string{
	"CreatorTool":   "CreatorTool",
	"softwareAgent": "xmpMM:History",
	"Software":      "tiff:Software",
	"Producer":      "pdf:Producer",
}

// xmpScan finds the XMP packets in a file's bytes (<x:xmpmeta> or the old
// <x:xapmeta>) and reads each. It reads every byte at most twice.
func (c *collector) xmpScan(data []byte) {
	open := []byte("<x:x")
	for packets := 0; packets < maxXMPPackets; {
		i := bytes.Index(data, open)
		if i < 0 {
			return
		}
		data = data[i:]
		if !hasPrefix(data, "<x:xmpmeta") && !hasPrefix(data, "<x:xapmeta") {
			data = data[len(open):]
			continue
		}
		packets++
		end := bytes.Index(data, []byte("</x:x"))
		if end < 0 {
			c.xmpPacket(data)
			return
		}
		c.xmpPacket(data[:end])
		data = data[end:]
	}
}

// xmpPacket reads one XMP packet (or a part of one).
func (c *collector) xmpPacket(p []byte) {
	if !c.spend() {
		return
	}
	for _, m := range xmpTool.FindAllSubmatchIndex(p, 64) {
		var v []byte
		for g := 4; g < 10; g += 2 {
			if m[g] >= 0 {
				v = p[m[g]:m[g+1]]
			}
		}
		c.value("xmp", xmpField[string(p[m[2]:m[3]])], html.UnescapeString(string(v[:min(len(v), 4*maxValue)])))
	}
	for _, m := range xmpPhotoshop.FindAllSubmatchIndex(p, 8) {
		prop := "photoshop:" + string(p[m[2]:m[3]])
		c.add("xmp", prop, prop+" is written only by Photoshop", "Adobe Photoshop")
	}
}
