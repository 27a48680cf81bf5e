package fakecheck

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
)

// realdata holds real photos and scans of documents, beside the
// repository, when present.
var realdata = filepath.Join(testutil.RepoRoot(), "..", "shared", "realdata")

// TestRealdata runs Check over every real file and logs what is flagged and
// why; where exiftool is installed it also checks the JPEG quantization
// digests against ExifTool's.
func TestRealdata(t *testing.T) {
	if _, err := os.Stat(realdata); err != nil {
		t.Skip("no real data at " + realdata)
	}
	var files, jpegs []string
	err := filepath.WalkDir(realdata, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".json", ".csv":
			return nil
		case ".jpg", ".jpeg":
			jpegs = append(jpegs, p)
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	k := newChecker(t)
	flagged, withReasons := 0, 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res := k.Check(data)
		rel, _ := filepath.Rel(realdata, p)
		if len(res.Reasons) > 0 {
			withReasons++
		}
		if !res.Fake {
			if len(res.Reasons) > 0 {
				t.Logf("not fake %s: %+v", rel, res.Reasons)
			}
			continue
		}
		flagged++
		var why []string
		for _, r := range res.Reasons {
			why = append(why, r.Source+"/"+r.Field+"="+r.Value+" ["+r.Editor+"]")
		}
		t.Logf("FAKE %s: %s", rel, strings.Join(why, "; "))
	}
	t.Logf("%d of %d files flagged, %d with reasons", flagged, len(files), withReasons)
	if flagged*3 > len(files) {
		t.Errorf("%d of %d real photos and scans flagged: the editor list is too eager", flagged, len(files))
	}
	if _, err := exec.LookPath("exiftool"); err == nil && len(jpegs) > 0 {
		compareDigests(t, jpegs)
	}
}
