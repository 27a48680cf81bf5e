package tamper

import (
	"bytes"
	"context"
	"image"
	"os/exec"
	"testing"

	"docsuite/pkg/fakecheck"
)

func TestMake(t *testing.T) {
	if _, err := exec.LookPath("exiftool"); err != nil {
		t.Skip("exiftool not installed")
	}
	mk, err := New(9, nil)
	if err != nil {
		t.Fatal(err)
	}
	fc, err := fakecheck.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range Kinds {
		t.Run(kind, func(t *testing.T) {
			s, err := mk.Make(context.Background(), 1, kind)
			if err != nil {
				t.Fatal(err)
			}
			again, err := mk.Make(context.Background(), 1, kind)
			if err != nil {
				t.Fatal(err)
			}
			if kind != EditorResave && !bytes.Equal(s.JPEG, again.JPEG) {
				t.Error("the same sample twice differs: the set is not reproducible")
			}
			// the truth lies on the document
			doc := docBox(s.Doc.Quad, image.Rect(-1e6, -1e6, 1e6, 1e6))
			local := kind == CopyMove || kind == PasteField || kind == ReplacePhoto
			switch {
			case local && (s.Box.Empty() || !s.Box.In(doc.Inset(-2))):
				t.Errorf("tampered region %v not on the document %v", s.Box, doc)
			case !local && !s.Box.Empty():
				t.Errorf("a %s sample names a tampered region %v", kind, s.Box)
			case kind == CopyMove && (s.Source.Overlaps(s.Box) || s.Source.Size() != s.Box.Size()):
				t.Errorf("copy from %v to %v", s.Source, s.Box)
			}
			// only the editor re-save carries an editor's trace
			if fake := fc.Check(s.JPEG).Fake; fake != (kind == EditorResave) {
				t.Errorf("editor trace %v on a %s sample", fake, kind)
			}
		})
	}
}
