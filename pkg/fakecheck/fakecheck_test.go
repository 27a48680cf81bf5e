package fakecheck

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
)

// newChecker builds the Checker of the embedded lists or stops the test.
func newChecker(t testing.TB) *Checker {
	t.Helper()
	k, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestEditorOf(t *testing.T) {
	k := newChecker(t)
	cases := map[string]string{
		"Adobe Photoshop 24.0 (Windows)":                     "Adobe Photoshop",
		"Adobe Photoshop CS6 (Macintosh)":                    "Adobe Photoshop",
		"Adobe ImageReady":                                   "Adobe Photoshop",
		"Adobe Photoshop Lightroom Classic 12.0 (Windows)":   "Photoshop Lightroom",
		"Adobe Illustrator CC (Windows)":                     "Adobe Illustrator",
		"GIMP 2.10":                                          "GIMP",
		"Created with GIMP":                                  "GIMP",
		"Canva":                                              "Canva",
		"www.ilovepdf.com":                                   "iLovePDF",
		"Smallpdf.com":                                       "Smallpdf",
		"Paint.NET v3.36":                                    "Paint.NET",
		"Corel PaintShop Pro 21.0":                           "Corel PaintShop Pro",
		"CorelDRAW X8":                                       "CorelDRAW",
		"Foxit PhantomPDF 9.7.1":                             "Foxit PDF Editor",
		"PDF-XChange Editor 9.5":                             "PDF-XChange Editor",
		"Adobe Acrobat Pro DC 21.1.20155":                    "Adobe Acrobat",
		"Adobe Acrobat Pro (64-bit) 23.8.20458":              "Adobe Acrobat",
		"Snapseed 2.0":                                       "Snapseed",
		"Pixelmator Pro 3.3":                                 "Pixelmator",
		"Affinity Photo 2.1":                                 "Affinity Photo",
		"Acrobat Distiller 9.0.0 (Windows)":                  "",
		"Adobe PDF Library 15.0":                             "",
		"Acrobat PDFMaker 20 for Word":                       "",
		"Adobe Acrobat 9.0 Paper Capture Plug-in":            "",
		"Adobe Acrobat Pro DC 20.0 Image Conversion Plug-in": "",
		"Microsoft: Print To PDF":                            "",
		"Foxit PhantomPDF Printer Version 9.7.1":             "",
		"Nitro PDF PrimoPDF":                                 "",
		"ImageMagick 7.1.0-4 Q16":                            "",
		"img2pdf 0.4.4":                                      "",
		"HDR+ 1.0.540104767zd":                               "",
		"Canon EOS 5D Mark IV":                               "",
		"Firmware Version 1.1.2":                             "",
		"Windows Photo Editor 10.0.10011.16384":              "",
		"HTML canvas export":                                 "",
		"":                                                   "",
	}
	for v, want := range cases {
		if got := k.editorOf(v); got != want {
			t.Errorf("editorOf(%q) = %q, want %q", v, got, want)
		}
	}
}

// jpegSeg builds a JPEG marker segment.
func jpegSeg(marker byte, body []byte) []byte {
	b := []byte{0xFF, marker, 0, 0}
	binary.BigEndian.PutUint16(b[2:], uint16(len(body)+2))
	return append(b, body...)
}

// jpegWith makes a JPEG-looking file from segments (no image data is
// needed: Check stops at the start of scan).
func jpegWith(segs ...[]byte) []byte {
	b := []byte{0xFF, 0xD8}
	for _, s := range segs {
		b = append(b, s...)
	}
	return append(b, 0xFF, 0xDA, 0, 2, 0xFF, 0xD9)
}

// irbBlock builds one 8BIM resource with an empty name.
func irbBlock(id uint16, data []byte) []byte {
	b := []byte("8BIM")
	b = binary.BigEndian.AppendUint16(b, id)
	b = append(b, 0, 0) // empty Pascal name, padded
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	b = append(b, data...)
	if len(data)%2 == 1 {
		b = append(b, 0)
	}
	return b
}

func versionInfo(writer string) []byte {
	b := []byte{0, 0, 0, 1, 1}
	u := utf16.Encode([]rune(writer))
	b = binary.BigEndian.AppendUint32(b, uint32(len(u)))
	for _, x := range u {
		b = binary.BigEndian.AppendUint16(b, x)
	}
	return b
}

// tiffWith builds a little-endian TIFF header with one IFD of ASCII tags.
func tiffWith(tags map[uint16]string) []byte {
	b := []byte("II*\x00\x08\x00\x00\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(len(tags)))
	dataOff := 8 + 2 + 12*len(tags) + 4
	var data []byte
	for _, tag := range []uint16{0x000B, 0x0131} {
		v, ok := tags[tag]
		if !ok {
			continue
		}
		v += "\x00"
		b = binary.LittleEndian.AppendUint16(b, tag)
		b = binary.LittleEndian.AppendUint16(b, 2)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
		b = binary.LittleEndian.AppendUint32(b, uint32(dataOff+len(data)))
		data = append(data, v...)
	}
	b = append(b, 0, 0, 0, 0)
	return append(b, data...)
}

// pdfWith builds a small PDF with the given Info entries and body.
func pdfWith(info, extra string) []byte {
	return []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n2 0 obj\n<< " + info +
		" >>\nendobj\ntrailer\n<< /Root 1 0 R /Info 2 0 R >>\n%%EOF\n" + extra)
}

func deflate(s string) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func TestCheckBuilt(t *testing.T) {
	xmp := `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description xmp:CreatorTool="Krita 5.1"/></rdf:RDF></x:xmpmeta>`
	objStm := deflate("3 0 << /Producer (Sejda 3.2.85) /CreationDate (D:20240101000000Z) >>")
	webpExif := append([]byte("Exif\x00\x00"), tiffWith(map[uint16]string{0x0131: "Snapseed 2.0"})...)
	webp := []byte("RIFF\x00\x00\x00\x00WEBPEXIF")
	webp = binary.LittleEndian.AppendUint32(webp, uint32(len(webpExif)))
	webp = append(webp, webpExif...)
	cases := []struct {
		name   string
		data   []byte
		fake   bool
		editor string
		field  string
	}{
		{"tiff GIMP", tiffWith(map[uint16]string{0x0131: "GIMP 2.10"}), true, "GIMP", "Software"},
		{"tiff camera", tiffWith(map[uint16]string{0x0131: "Ver.1.00", 0x000B: "HDR+ 1.0"}), false, "", ""},
		{"tiff ProcessingSoftware", tiffWith(map[uint16]string{0x000B: "PicsArt 20"}), true, "PicsArt", "ProcessingSoftware"},
		{"jpeg IPTC only", jpegWith(jpegSeg(0xED, append([]byte(photoshopIRB), irbBlock(0x0404, []byte("\x1c\x02\x19\x00\x04test"))...))), false, "", ""},
		{"jpeg IRB writer", jpegWith(jpegSeg(0xED, append([]byte(photoshopIRB), append(irbBlock(0x0404, nil), irbBlock(0x0421, versionInfo("Adobe Photoshop"))...)...))), true, "Adobe Photoshop", "VersionInfo"},
		{"jpeg IRB resolution", jpegWith(jpegSeg(0xED, append([]byte(photoshopIRB), irbBlock(0x03ED, make([]byte, 16))...))), true, "Adobe Photoshop", "8BIM"},
		{"jpeg Ducky", jpegWith(jpegSeg(0xEC, []byte("Ducky\x00\x01\x00\x04\x00\x00\x00\x3c\x00\x00"))), true, "Adobe Photoshop", "Ducky"},
		{"jpeg comment GIMP", jpegWith(jpegSeg(0xFE, []byte("Created with GIMP"))), true, "GIMP", "Comment"},
		{"jpeg comment gd", jpegWith(jpegSeg(0xFE, []byte("CREATOR: gd-jpeg v1.0 (using IJG JPEG v62), quality = 75"))), false, "", ""},
		{"jpeg xmp history", jpegWith(jpegSeg(0xE1, []byte(xmpPrefix+`<x:xmpmeta><rdf:li stEvt:action="saved" stEvt:softwareAgent="Adobe Photoshop CC 2019 (Windows)"/></x:xmpmeta>`))), true, "Adobe Photoshop", "xmpMM:History"},
		{"jpeg xmp ColorMode", jpegWith(jpegSeg(0xE1, []byte(xmpPrefix+`<x:xmpmeta><rdf:Description photoshop:ColorMode="3" photoshop:City="Riga"/></x:xmpmeta>`))), true, "Adobe Photoshop", "photoshop:ColorMode"},
		{"jpeg xmp City only", jpegWith(jpegSeg(0xE1, []byte(xmpPrefix+`<x:xmpmeta><rdf:Description photoshop:City="Riga"/></x:xmpmeta>`))), false, "", ""},
		{"webp exif", webp, true, "Snapseed", "Software"},
		{"unknown with xmp", append([]byte("GIF89a junk "), xmp...), true, "Krita", "CreatorTool"},
		{"pdf literal", pdfWith("/Producer (iLovePDF)", ""), true, "iLovePDF", "Producer"},
		{"pdf escaped literal", pdfWith(`/Creator (Canva \(web\))`, ""), true, "Canva", "Creator"},
		{"pdf octal utf16", pdfWith(`/Producer (\376\377\000S\000m\000a\000l\000l\000p\000d\000f)`, ""), true, "Smallpdf", "Producer"},
		{"pdf hex utf16", pdfWith("/Creator <FEFF0050004400460065007300630061007000650020>", ""), true, "PDFescape", "Creator"},
		{"pdf neutral", pdfWith("/Producer (Adobe PDF Library 15.0) /Creator (Acrobat PDFMaker 20 for Word)", ""), false, "", ""},
		{"pdf distiller", pdfWith("/Producer (Acrobat Distiller 10.0.0 \\(Windows\\))", ""), false, "", ""},
		{"pdf print", pdfWith("/Producer (Microsoft: Print To PDF)", ""), false, "", ""},
		{"pdf moddate only", pdfWith("/CreationDate (D:20240101100000+03'00') /ModDate (D:20240102100000+03'00')", ""), false, "", "ModDate"},
		{"pdf moddate same instant", pdfWith("/CreationDate (D:20240101100000+03'00') /ModDate (D:20240101070030Z)", "2 0 obj\n<< >>\nendobj\n%%EOF\n"), false, "", ""},
		{"pdf incremental", pdfWith("/CreationDate (D:20240101100000Z)", "2 0 obj\n<< /ModDate (D:20240301100000Z) >>\nendobj\n%%EOF\n"), true, "", "%%EOF"},
		{"pdf linearized", append([]byte("%PDF-1.6\n1 0 obj << /Linearized 1 >> endobj\n%%EOF\n"), pdfWith("/CreationDate (D:20240101100000Z) /ModDate (D:20240301100000Z)", "")[9:]...), false, "", "ModDate"},
		{"pdf objstm", pdfWith("", fmt.Sprintf("3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream\nendobj\n", len(objStm), objStm)), true, "Sejda", "Producer"},
		{"pdf compressed xmp", pdfWith("/Metadata 4 0 R", "4 0 obj\n<< /Type /Metadata /Subtype /XML /Filter /FlateDecode >>\nstream\n"+string(deflate(xmp))+"\nendstream\nendobj\n"), true, "Krita", "CreatorTool"},
		{"empty", nil, false, "", ""},
	}
	k := newChecker(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := k.Check(tc.data)
			if res.Fake != tc.fake {
				t.Errorf("Fake = %v, want %v; reasons %+v", res.Fake, tc.fake, res.Reasons)
			}
			if tc.field == "" {
				if len(res.Reasons) != 0 {
					t.Errorf("unexpected reasons %+v", res.Reasons)
				}
				return
			}
			if !hasReason(res, tc.field, tc.editor) {
				t.Errorf("no reason with field %q and editor %q in %+v", tc.field, tc.editor, res.Reasons)
			}
		})
	}
}

func hasReason(res Result, field, editor string) bool {
	for _, r := range res.Reasons {
		if r.Field == field && r.Editor == editor {
			return true
		}
	}
	return false
}

func TestPDFText(t *testing.T) {
	cases := map[string]string{
		`(a\(b\)c)`:            "a(b)c",
		`(nested (paren) ok)`:  "nested (paren) ok",
		`(\101\102C)`:          "ABC",
		`<41 42 4>`:            "AB@",
		`<FEFF004100DF>`:       "Aß",
		"(line\\\ncontinued)":  "linecontinued",
		`(\376\377\000O\000K)`: "OK",
	}
	for in, want := range cases {
		if got := pdfText([]byte(in)); got != want {
			t.Errorf("pdfText(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestParsePDFDate(t *testing.T) {
	a, ok1 := parsePDFDate("D:20240101100000+03'00'")
	b, ok2 := parsePDFDate("D:20240101070000Z")
	c, ok3 := parsePDFDate("D:2024")
	if !ok1 || !ok2 || !ok3 || !a.Equal(b) || c.Year() != 2024 {
		t.Errorf("dates: %v %v %v (%v %v %v)", a, b, c, ok1, ok2, ok3)
	}
	if _, ok := parsePDFDate("yesterday"); ok {
		t.Error("parsed a non-date")
	}
}

func TestValueCut(t *testing.T) {
	long := "Adobe Photoshop " + strings.Repeat("ж", 300)
	res := newChecker(t).Check(tiffWith(map[uint16]string{0x0131: long}))
	if len(res.Reasons) != 1 || len(res.Reasons[0].Value) > maxValue || !strings.HasPrefix(res.Reasons[0].Value, "Adobe Photoshop") {
		t.Fatalf("reasons %+v", res.Reasons)
	}
}

// TestReasonAlwaysSendsEditor: every reason carries its editor key, empty
// for a trace that names none (clients read r["editor"] on each).
func TestReasonAlwaysSendsEditor(t *testing.T) {
	b, err := json.Marshal(Reason{Source: "pdf_info", Field: "ModDate", Value: "after creation"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"editor":""`) {
		t.Errorf("reason without an editor: %s", b)
	}
}
