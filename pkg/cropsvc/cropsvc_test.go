package cropsvc

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/draw"
	"image/jpeg"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/crop"
	"docsuite/pkg/onnxrt"
	"docsuite/pkg/rawimg"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
	"docsuite/pkg/synth"
)

// source opens the neural cropper from dir the way the cropper role does:
// a failed load is model_not_loaded.
func source(t *testing.T, dir string) NeuralSource {
	t.Helper()
	n, err := crop.OpenNeural(crop.NeuralConfig{Dir: dir})
	if err == nil {
		t.Cleanup(func() { _ = n.Close() })
	}
	return func(context.Context) (Finder, error) {
		if err != nil {
			return nil, apierr.Wrap(apierr.ModelNotLoaded, err, "Model not loaded: "+err.Error())
		}
		return n, nil
	}
}

// TestCropperChoice checks which cropper a request gets: the neural one by
// default (model_not_loaded without its model), the simple one with
// simple_cropper=true even without the model, and no cutting at all for
// mode=classify_only.
func TestCropperChoice(t *testing.T) {
	if _, err := onnxrt.FindLibrary(""); err != nil {
		t.Skipf("ONNX Runtime not installed: %v", err)
	}
	g, err := synth.New(synth.Config{Seed: 616161, Size: 1000, MinDocs: 2, MaxDocs: 2, ScanProb: -1, Effects: synth.DefaultEffects()})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := g.Scene(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, sc.Img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	st, err := store.NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Put(context.Background(), "in/scene.jpg", buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, onnxrt.ManifestFile), []byte(`{"version": 1, "models": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := source(t, empty)
	present := source(t, "models")
	if _, err := present(context.Background()); err != nil {
		t.Logf("repository model not available, its case is skipped: %v", err)
		present = nil
	}
	cases := []struct {
		name      string
		neural    NeuralSource
		simple    bool
		wholePage bool
		wantCode  apierr.Code
		wantDocs  int // -1: at least one cut document
		wantWhole bool
	}{
		{name: "default, model present", neural: present, wantDocs: -1},
		{name: "default, model missing", neural: missing, wantCode: apierr.ModelNotLoaded},
		{name: "simple_cropper=true, model missing", neural: missing, simple: true, wantDocs: -1},
		{name: "classify_only, model missing", neural: missing, wholePage: true, wantDocs: 1, wantWhole: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.neural == nil {
				t.Skip("cropnet not available (make models)")
			}
			svc := New(st, t.TempDir(), slog.New(slog.DiscardHandler), tc.neural, nil)
			defer svc.Close()
			reply, err := svc.Crop(context.Background(), stages.CropRequest{TaskID: "t", InputKey: "in/scene.jpg", Simple: tc.simple, WholePage: tc.wholePage})
			if tc.wantCode != "" {
				var ae *apierr.Error
				if !errors.As(err, &ae) || ae.Code != tc.wantCode {
					t.Fatalf("got %v, want error %s", err, tc.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.wantDocs < 0 && (len(reply.Docs) == 0 || reply.Docs[0].WholePage):
				t.Errorf("got %+v, want cut documents", reply.Docs)
			case tc.wantDocs >= 0 && len(reply.Docs) != tc.wantDocs:
				t.Errorf("got %d documents, want %d", len(reply.Docs), tc.wantDocs)
			case len(reply.Docs) > 0 && reply.Docs[0].WholePage != tc.wantWhole:
				t.Errorf("whole page %v, want %v", reply.Docs[0].WholePage, tc.wantWhole)
			}
			if tc.wantWhole {
				checkStoredAsRGBA(t, st, reply.Docs[0].CropKey, buf.Bytes())
				// Above planesAbove, the page keeps its planes.
				svc.planesAbove = 0
				reply, err := svc.Crop(context.Background(), stages.CropRequest{TaskID: "t2", InputKey: "in/scene.jpg", WholePage: true})
				if err != nil {
					t.Fatal(err)
				}
				checkStoredAsPlanes(t, st, reply.Docs[0].CropKey, buf.Bytes())
			}
		})
	}
}

// checkStoredAsRGBA checks that a JPEG page stored whole, under
// planesAbove, is RGBA with the pixels image/draw makes of the decoder's
// samples: the readers see what they were tuned on, converted once.
func checkStoredAsRGBA(t *testing.T, st store.Store, key string, jpg []byte) {
	t.Helper()
	got, page, _ := storedAndPage(t, st, key, jpg)
	want := image.NewRGBA(image.Rect(0, 0, page.Bounds().Dx(), page.Bounds().Dy()))
	draw.Draw(want, want.Bounds(), page, page.Bounds().Min, draw.Src)
	g, ok := got.(*image.RGBA)
	if !ok || !bytes.Equal(g.Pix, want.Pix) {
		t.Fatalf("stored as %T, not image/draw's RGBA of the page", got)
	}
}

// checkStoredAsPlanes checks that a JPEG page stored whole, above
// planesAbove, is its decoded YCbCr planes, 1.5 bytes a pixel at 4:2:0
// where RGBA would take 4, with the decoder's very samples.
func checkStoredAsPlanes(t *testing.T, st store.Store, key string, jpg []byte) {
	t.Helper()
	got, want, data := storedAndPage(t, st, key, jpg)
	g, ok := got.(*image.YCbCr)
	w := want.(*image.YCbCr)
	if !ok || g.SubsampleRatio != w.SubsampleRatio || g.Bounds() != w.Bounds() {
		t.Fatalf("stored as %T, not the page's YCbCr planes", got)
	}
	for y := 0; y < w.Bounds().Dy(); y++ {
		for x := 0; x < w.Bounds().Dx(); x++ {
			if g.YCbCrAt(x, y) != w.YCbCrAt(x, y) {
				t.Fatalf("sample (%d,%d) is %v, the decoder's %v", x, y, g.YCbCrAt(x, y), w.YCbCrAt(x, y))
			}
		}
	}
	if px := w.Bounds().Dx() * w.Bounds().Dy(); len(data) > px*3/2+px/100+64 {
		t.Errorf("%d bytes stored for %d pixels", len(data), px)
	}
}

// storedAndPage reads the crop stored under key, and decodes the JPEG page
// it was cut from; data is the stored encoding.
func storedAndPage(t *testing.T, st store.Store, key string, jpg []byte) (stored, page image.Image, data []byte) {
	t.Helper()
	data, err := st.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	if stored, err = rawimg.Decode(data); err != nil {
		t.Fatal(err)
	}
	if page, err = jpeg.Decode(bytes.NewReader(jpg)); err != nil {
		t.Fatal(err)
	}
	return stored, page, data
}
