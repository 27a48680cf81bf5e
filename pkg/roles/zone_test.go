package roles

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/classify"
	"docsuite/pkg/config"
	"docsuite/pkg/decode"
	"docsuite/pkg/doctypes"
)

// realdata is the shared folder of real photos and scans beside the
// repository; tests that read it skip when it is absent.
var realdata = filepath.Join("..", "..", "..", "shared", "realdata")

// TestZoneSettlesRealDocuments classifies real scans whose picture alone
// misleads the type network and checks that the zone read on them names
// the right type: the issuing state settles a Pakistani and an Indian
// passport data page, and documents of states outside the catalogue are
// `other`.
func TestZoneSettlesRealDocuments(t *testing.T) {
	if _, err := os.Stat(filepath.Join(realdata, "manifest.csv")); err != nil {
		t.Skipf("realdata not available: %v", err)
	}
	m := config.Models{Dir: "models", ONNXRuntime: os.Getenv("ONNXRUNTIME_LIB"), Threads: 1, PrintedWords: true}
	if m.ONNXRuntime == "" {
		m.ONNXRuntime = ".cache/onnxruntime/libonnxruntime.so.1"
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	zr, err := openZoneReader(m, log)
	if err != nil {
		t.Skipf("zone reader models not available: %v", err)
	}
	defer zr.Close()
	cl, err := classify.Open(classify.Options{Dir: m.Dir, Library: m.ONNXRuntime, Threads: 1, Log: log})
	if err != nil {
		t.Skipf("classifier model not available: %v", err)
	}
	defer cl.Close()
	cases := []struct {
		file, issuer, family string
	}{
		{"iAmmarTahir-MASK-RCNN-Dataset/PakPass__Original__2.jpg", "PAK", "pak_passport_2013_main"},
		{"mindee-client-lib-test-data/v1__products__ind_passport__default_sample.jpg", "IND", "ind_passport"},
		{"PassportEye/passporteye__mrz__testdata__100_pass-cze.jpg", "CZE", doctypes.Other},
		{"PassportEye/passporteye__mrz__testdata__100_id-rou.jpg", "ROU", doctypes.Other},
	}
	for _, c := range cases {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(realdata, c.file))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := decode.Open(context.Background(), data, decode.Options{TempDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			img, err := doc.Page(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			ev, rot, conf, err := zr.Read(context.Background(), img)
			t.Logf("orientation %v (%.2f)", rot, conf)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Zone == nil || (ev.Zone.Issuer != c.issuer && ev.Zone.Nationality != c.issuer) {
				t.Fatalf("zone %+v, want issuer or nationality %s", ev.Zone, c.issuer)
			}
			got, err := cl.ClassifyWith(context.Background(), img, nil, ev)
			if err != nil {
				t.Fatal(err)
			}
			if doctypes.Family(got.Type) != doctypes.Family(c.family) && got.Type != c.family {
				t.Errorf("type %s (%.2f), want the %s family", got.Type, got.Confidence, c.family)
			}
		})
	}
}
