package fakecheck

import (
	"bytes"
	"image/jpeg"
	"image/png"
	"testing"
)

// FuzzCheck feeds Check arbitrary bytes: it must never panic, and Fake
// must always be backed by a reason.
func FuzzCheck(f *testing.F) {
	var j, p bytes.Buffer
	if err := jpeg.Encode(&j, testImage(), nil); err != nil {
		f.Fatal(err)
	}
	if err := png.Encode(&p, testImage()); err != nil {
		f.Fatal(err)
	}
	f.Add(j.Bytes())
	f.Add(p.Bytes())
	f.Add(tiffWith(map[uint16]string{0x0131: "GIMP 2.10", 0x000B: "x"}))
	f.Add(jpegWith(jpegSeg(0xED, append([]byte(photoshopIRB), irbBlock(0x0421, versionInfo("Adobe Photoshop"))...))))
	f.Add(pdfWith("/Producer <FEFF0041> /CreationDate (D:2024) /ModDate (D:2025)", "%%EOF\n"))
	f.Add([]byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00Exif\x00\x00MM\x00*\x00\x00\x00\x08"))
	f.Add([]byte("RIFF\x10\x00\x00\x00WEBPEXIF\x04\x00\x00\x00II*\x00"))
	f.Add([]byte("<x:xmpmeta xmp:CreatorTool='Canva'"))
	k := newChecker(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		res := k.Check(data)
		if !res.Fake {
			return
		}
		for _, r := range res.Reasons {
			if r.Editor != "" || r.Field == "%%EOF" {
				return
			}
		}
		t.Fatalf("Fake without a reason: %+v", res.Reasons)
	})
}
