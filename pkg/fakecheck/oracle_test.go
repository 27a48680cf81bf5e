package fakecheck

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exiftoolFields are the metadata fields, by ExifTool tag name in any
// group, whose values can name the program that wrote the file: EXIF and
// XMP Software, ProcessingSoftware, CreatorTool, the software agents of
// the XMP history, the Photoshop resources' writer, JPEG and PNG comments,
// the PDF Producer and Creator, and ExifTool's own identification of the
// JPEG quantization tables.
var exiftoolFields = []string{"Software", "ProcessingSoftware", "CreatorTool", "HistorySoftwareAgent",
	"WriterName", "Comment", "Producer", "Creator", "JPEGDigest"}

// photoshopOnly are the XMP photoshop properties only Photoshop writes.
var photoshopOnly = []string{"ColorMode", "ICCProfile", "History", "DocumentAncestors", "TextLayers"}

// irbShared are the Photoshop image resources other programs write too.
var irbShared = []string{"IPTCDigest", "CopyrightFlag", "URL_List", "URL"}

// exiftoolEditors returns the editors that the metadata ExifTool reads in
// one file names, by the same editor list k's Check applies: an
// independent reading of the same traces.
func exiftoolEditors(k *Checker, tags map[string]any) []string {
	var eds []string
	add := func(e string) {
		if e != "" && !slices.Contains(eds, e) {
			eds = append(eds, e)
		}
	}
	writer := ""
	irb := false
	for key, v := range tags {
		group, name, ok := strings.Cut(key, ":")
		if !ok {
			continue
		}
		values := []string{fmt.Sprint(v)}
		if list, ok := v.([]any); ok {
			values = values[:0]
			for _, x := range list {
				values = append(values, fmt.Sprint(x))
			}
		}
		switch {
		case slices.Contains(exiftoolFields, name):
			for _, s := range values {
				add(k.editorOf(s))
			}
			if group == "Photoshop" && name == "WriterName" {
				writer = values[0]
			}
		case group == "Ducky":
			add(k.editorOf("Adobe Photoshop"))
		case group == "XMP-photoshop" && slices.Contains(photoshopOnly, name):
			add(k.editorOf("Adobe Photoshop"))
		}
		if group == "Photoshop" && !slices.Contains(irbShared, name) {
			irb = true
		}
	}
	if irb {
		if writer == "" {
			writer = "Adobe Photoshop"
		}
		add(k.editorOf(writer))
	}
	slices.Sort(eds)
	return eds
}

// TestRealdataAgreesWithExifTool reads the metadata of every real photo,
// scan and PDF with ExifTool and expects Check to name exactly the editors
// that ExifTool's reading of the same fields names: no editor trace is
// missed, none is made up, and no camera or scanner original is flagged.
// Fake must follow the editors except on PDFs, where a later save alone
// also makes a file fake.
func TestRealdataAgreesWithExifTool(t *testing.T) {
	if _, err := os.Stat(realdata); err != nil {
		t.Skip("no real data at " + realdata)
	}
	if _, err := exec.LookPath("exiftool"); err != nil {
		t.Skip("exiftool is not installed")
	}
	out, err := exec.Command("exiftool", "-j", "-G1", "-a", "-all", "-JPEGDigest", "-q", "-q", "-m", "-r",
		"--ext", "csv", "--ext", "json", "--ext", "md", realdata).Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("exiftool: %v", err)
	}
	var files []map[string]any
	if err := json.Unmarshal(out, &files); err != nil {
		t.Fatalf("exiftool output: %v", err)
	}
	k := newChecker(t)
	cameras, flagged := 0, 0
	for _, tags := range files {
		path := fmt.Sprint(tags["SourceFile"])
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(realdata, path)
		want := exiftoolEditors(k, tags)
		res := k.Check(data)
		var got []string
		for _, r := range res.Reasons {
			if r.Editor != "" && !slices.Contains(got, r.Editor) {
				got = append(got, r.Editor)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) || res.Fake != (len(got) > 0) && !strings.HasSuffix(rel, ".pdf") {
			t.Errorf("%s: fake %v naming %v; ExifTool's fields name %v (reasons %+v)", rel, res.Fake, got, want, res.Reasons)
		}
		if res.Fake {
			flagged++
		}
		if _, camera := tags["IFD0:Make"]; camera {
			cameras++
			t.Logf("camera original? %s (%v %v, Software %v): fake %v", rel, tags["IFD0:Make"], tags["IFD0:Model"], tags["IFD0:Software"], res.Fake)
		}
	}
	if len(files) < 100 {
		t.Errorf("ExifTool read %d files", len(files))
	}
	t.Logf("%d files: %d fake, naming the same editors as ExifTool's reading of each; %d carry a camera make", len(files), flagged, cameras)
}
