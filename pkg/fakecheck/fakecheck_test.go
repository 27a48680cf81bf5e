package fakecheck

import (
	"bytes"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
)

// variant makes a file from base with exiftool arguments applied.
func variant(t *testing.T, dir, name string, base []byte, args ...string) []byte {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, base, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(args) > 0 {
		testutil.Run(t, dir, "exiftool", append(append([]string{"-q", "-overwrite_original"}, args...), name)...)
	}
	out, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestEditorTraces(t *testing.T) {
	testutil.Need(t, "exiftool", "img2pdf")
	dir := t.TempDir()
	img := testutil.TestPage(120, 90)
	var jb, pb bytes.Buffer
	if err := jpeg.Encode(&jb, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(&pb, img); err != nil {
		t.Fatal(err)
	}
	base := variant(t, dir, "base.jpg", jb.Bytes())
	testutil.Run(t, dir, "img2pdf", "base.jpg", "-o", "base.pdf")
	pdf, err := os.ReadFile(filepath.Join(dir, "base.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		data   []byte
		fake   bool
		editor string
	}{
		{"untouched jpeg", base, false, ""},
		{"phone camera software", variant(t, dir, "cam.jpg", base, "-Make=Google", "-Software=HDR+ 1.0.540104767zd"), false, ""},
		{"scanner software", variant(t, dir, "scan.jpg", base, "-Software=EPSON Scan 3.9.3.4"), false, ""},
		{"photoshop software", variant(t, dir, "ps.jpg", base, "-Software=Adobe Photoshop 24.0 (Windows)"), true, "Adobe Photoshop"},
		{"processing software", variant(t, dir, "proc.jpg", base, "-ProcessingSoftware=Snapseed 2.0"), true, "Snapseed"},
		{"xmp creator tool", variant(t, dir, "gimp.jpg", base, "-XMP:CreatorTool=GIMP 2.10"), true, "GIMP"},
		{"xmp history", variant(t, dir, "hist.jpg", base, "-XMP-xmpMM:HistoryAction=saved", "-XMP-xmpMM:HistorySoftwareAgent=Adobe Photoshop Lightroom Classic 12.0"), true, "Adobe Photoshop"},
		{"iptc keywords only", variant(t, dir, "iptc.jpg", base, "-IPTC:Keywords=passport"), false, ""},
		{"photoshop resource block", withResolutionInfo(base), true, "Adobe Photoshop"},
		{"untouched png", pb.Bytes(), false, ""},
		{"png software chunk", variant(t, dir, "sw.png", pb.Bytes(), "-PNG:Software=Paint.NET 5.0"), true, "Paint.NET"},
		{"img2pdf scan", pdf, false, ""},
		{"pdf producer ilovepdf", variant(t, dir, "ilove.pdf", pdf, "-PDF:Producer=iLovePDF"), true, "iLovePDF"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := Check(tc.data)
			if res.Fake != tc.fake {
				t.Fatalf("fake %v, want %v; reasons %+v", res.Fake, tc.fake, res.Reasons)
			}
			if tc.editor == "" {
				return
			}
			for _, r := range res.Reasons {
				if r.Editor == tc.editor {
					return
				}
			}
			t.Errorf("no reason names %s: %+v", tc.editor, res.Reasons)
		})
	}
}

// withResolutionInfo inserts the APP13 segment Photoshop writes on every
// save (an 8BIM ResolutionInfo resource, 0x03ED) after the SOI marker.
func withResolutionInfo(jpg []byte) []byte {
	res := []byte("Photoshop 3.0\x008BIM\x03\xed\x00\x00\x00\x00\x00\x10")
	res = append(res, make([]byte, 16)...)
	seg := append([]byte{0xFF, 0xED, byte((len(res) + 2) >> 8), byte(len(res) + 2)}, res...)
	return append(append(bytes.Clone(jpg[:2]), seg...), jpg[2:]...)
}

func TestPDFFields(t *testing.T) {
	tests := []struct {
		name string
		pdf  string
		fake bool
	}{
		{"hex utf-16 producer", "%PDF-1.4\n1 0 obj << /Producer <FEFF0053006D0061006C006C007000640066> >> endobj\n%%EOF\n", true},
		{"escaped literal creator", `%PDF-1.4` + "\n" + `1 0 obj << /Creator (Canva \(web\)) >> endobj` + "\n%%EOF\n", true},
		{"distiller is neutral", "%PDF-1.4\n1 0 obj << /Producer (Acrobat Distiller 11.0 \\(Windows\\)) >> endobj\n%%EOF\n", false},
		{"dates differ, one save", "%PDF-1.4\n1 0 obj << /CreationDate (D:20240101100000Z) /ModDate (D:20240301100000Z) >> endobj\n%%EOF\n", false},
		{"dates differ, saved again", "%PDF-1.4\n1 0 obj << /CreationDate (D:20240101100000Z) >> endobj\n%%EOF\n2 0 obj << /ModDate (D:20240301100000Z) >> endobj\n%%EOF\n", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if res := Check([]byte(tc.pdf)); res.Fake != tc.fake {
				t.Errorf("fake %v, want %v: %+v", res.Fake, tc.fake, res.Reasons)
			}
		})
	}
}

// TestRealdata runs the check over the shared real photos and scans and
// reports what it flags; those are camera and scanner files, most of
// which must come out clean.
func TestRealdata(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(testutil.RepoRoot(), "..", "shared", "realdata", "*", "*"))
	if len(files) == 0 {
		t.Skip("no shared real data")
	}
	flagged, n := 0, 0
	for _, f := range files {
		if strings.HasSuffix(f, ".csv") || strings.HasSuffix(f, ".json") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n++
		if res := Check(data); res.Fake {
			flagged++
			t.Logf("flagged %s: %+v", filepath.Base(f), res.Reasons)
		}
	}
	t.Logf("%d of %d real files carry editor traces", flagged, n)
	if flagged*3 > n {
		t.Errorf("%d of %d real files flagged: the editor list is too eager", flagged, n)
	}
}

func FuzzCheck(f *testing.F) {
	f.Add([]byte("\xff\xd8\xff\xe1\x00\x10Exif\x00\x00II*\x00\x08\x00\x00\x00"))
	f.Add([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x04tEXtSoftware\x00GIMP\x00\x00\x00\x00"))
	f.Add([]byte("%PDF-1.4 /Producer (x) /CreationDate (D:2020) /ModDate (D:2021)"))
	f.Add([]byte("<x:xmpmeta xmp:CreatorTool=\"GIMP\"></x:xmpmeta>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		res := Check(data)
		for _, r := range res.Reasons {
			if len(r.Value) > 200 {
				t.Fatalf("value of %d bytes", len(r.Value))
			}
		}
	})
}
