package fakecheck

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testImage is a small gradient.
func testImage() image.Image {
	img := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for y := range 48 {
		for x := range 64 {
			img.Set(x, y, color.RGBA{uint8(x * 4), uint8(y * 5), 128, 255})
		}
	}
	return img
}

// fixture writes a fresh base file of the given kind into dir.
func fixture(t *testing.T, dir, kind string) string {
	t.Helper()
	var buf bytes.Buffer
	switch kind {
	case "jpg":
		if err := jpeg.Encode(&buf, testImage(), &jpeg.Options{Quality: 90}); err != nil {
			t.Fatal(err)
		}
	case "png", "heic", "pdf":
		if err := png.Encode(&buf, testImage()); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "base.png")
	if kind == "jpg" {
		p = filepath.Join(dir, "base.jpg")
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	switch kind {
	case "heic":
		out := filepath.Join(dir, "base.heic")
		run(t, "heif-enc", p, "-o", out)
		return out
	case "pdf":
		out := filepath.Join(dir, "base.pdf")
		run(t, "img2pdf", p, "-o", out)
		return out
	}
	return p
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		t.Skipf("%s is not installed", name)
	}
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// TestWithTools edits files made by Go's encoders, heif-enc and img2pdf
// with exiftool, the way an editor leaves its traces.
func TestWithTools(t *testing.T) {
	cases := []struct {
		name, kind string
		tags       []string
		fake       bool
		source     string
		editor     string
	}{
		{"jpeg plain", "jpg", nil, false, "", ""},
		{"jpeg Photoshop Software", "jpg", []string{"-Software=Adobe Photoshop 24.0 (Windows)"}, true, "exif", "Adobe Photoshop"},
		{"jpeg GIMP CreatorTool", "jpg", []string{"-XMP:CreatorTool=GIMP 2.10"}, true, "xmp", "GIMP"},
		{"jpeg ProcessingSoftware", "jpg", []string{"-ProcessingSoftware=Snapseed 2.0"}, true, "exif", "Snapseed"},
		{"jpeg History", "jpg", []string{"-XMP-xmpMM:HistoryAction=saved", "-XMP-xmpMM:HistorySoftwareAgent=Adobe Photoshop CC 2019 (Windows)"}, true, "xmp", "Adobe Photoshop"},
		{"jpeg Lightroom", "jpg", []string{"-Software=Adobe Photoshop Lightroom Classic 12.0 (Windows)"}, true, "exif", "Photoshop Lightroom"},
		{"jpeg Pixel camera", "jpg", []string{"-Make=Google", "-Model=Pixel 7", "-Software=HDR+ 1.0.540104767zd"}, false, "", ""},
		{"jpeg Canon camera", "jpg", []string{"-Make=Canon", "-Model=Canon EOS 5D Mark IV", "-Software=Canon EOS 5D Mark IV Firmware Version 1.1.2"}, false, "", ""},
		{"jpeg scanner", "jpg", []string{"-Make=EPSON", "-Software=EPSON Scan"}, false, "", ""},
		{"jpeg IPTC", "jpg", []string{"-IPTC:Keywords=passport", "-IPTC:City=Riga"}, false, "", ""},
		{"png plain", "png", nil, false, "", ""},
		{"png Software", "png", []string{"-PNG:Software=Adobe Photoshop CC 2019"}, true, "png_text", "Adobe Photoshop"},
		{"png Comment", "png", []string{"-PNG:Comment=Created with GIMP"}, true, "png_text", "GIMP"},
		{"png XMP", "png", []string{"-XMP:CreatorTool=Pixelmator Pro 3.3"}, true, "xmp", "Pixelmator"},
		{"png scanner", "png", []string{"-PNG:Software=HP Scan"}, false, "", ""},
		{"heic plain", "heic", nil, false, "", ""},
		{"heic Software", "heic", []string{"-Software=Adobe Photoshop 24.0 (Windows)"}, true, "heic_exif", "Adobe Photoshop"},
		{"pdf img2pdf", "pdf", nil, false, "", ""},
		{"pdf iLovePDF", "pdf", []string{"-PDF:Producer=iLovePDF"}, true, "pdf_info", "iLovePDF"},
		{"pdf Distiller", "pdf", []string{"-PDF:Producer=Acrobat Distiller 9.0"}, false, "", ""},
		{"pdf modified later", "pdf", []string{"-PDF:ModifyDate=2031:01:01 00:00:00Z"}, true, "pdf_info", ""},
	}
	if _, err := exec.LookPath("exiftool"); err != nil {
		t.Skip("exiftool is not installed")
	}
	k := newChecker(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := fixture(t, dir, tc.kind)
			if len(tc.tags) > 0 {
				run(t, "exiftool", append(append([]string{"-q", "-overwrite_original"}, tc.tags...), p)...)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			res := k.Check(data)
			if res.Fake != tc.fake {
				t.Errorf("Fake = %v, want %v; reasons %+v", res.Fake, tc.fake, res.Reasons)
			}
			if !tc.fake {
				for _, r := range res.Reasons {
					if r.Editor != "" {
						t.Errorf("editor reason on an original: %+v", r)
					}
				}
				return
			}
			found := false
			for _, r := range res.Reasons {
				found = found || r.Source == tc.source && r.Editor == tc.editor
			}
			if !found {
				t.Errorf("no reason from %s naming %q: %+v", tc.source, tc.editor, res.Reasons)
			}
		})
	}
}

// TestDQTDigestMatchesExifTool checks the quantization digest against
// ExifTool's JPEGDigest on JPEGs of several qualities and samplings.
func TestDQTDigestMatchesExifTool(t *testing.T) {
	if _, err := exec.LookPath("exiftool"); err != nil {
		t.Skip("exiftool is not installed")
	}
	dir := t.TempDir()
	var files []string
	for _, q := range []int{50, 75, 90, 100} {
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, testImage(), &jpeg.Options{Quality: q}); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, fmt.Sprintf("q%d.jpg", q))
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	compareDigests(t, files)
}

// compareDigests runs exiftool once over the files and compares each
// JPEGDigest with the one computed here.
func compareDigests(t *testing.T, files []string) {
	t.Helper()
	args := append([]string{"-q", "-q", "-m", "-p", "$FilePath\t$JPEGDigest#"}, files...)
	out, err := exec.Command("exiftool", args...).Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("exiftool: %v", err)
	}
	k := newChecker(t)
	compared := 0
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		path, want, ok := strings.Cut(line, "\t")
		if !ok || want == "" {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		c := collector{k: k, budget: inflateBudget}
		c.jpeg(data)
		got := c.dqtKey
		if !strings.Contains(want, ":") {
			// ExifTool leaves the sampling out when the digest alone is known.
			got, _, _ = strings.Cut(got, ":")
		}
		if got != want {
			t.Errorf("%s: digest %q, ExifTool %q", path, c.dqtKey, want)
		}
		compared++
	}
	if compared == 0 {
		t.Error("exiftool reported no digest")
	}
	t.Logf("%d JPEG digests agree with ExifTool", compared)
}
