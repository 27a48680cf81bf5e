package roles

import (
	"context"
	"path/filepath"
	"testing"

	"docsuite/pkg/doctypes"
)

// TestZoneSettlesRealDocuments classifies real scans whose picture alone
// misleads the type network and checks that the zone read on them names
// the right type: the issuing state settles a Pakistani and an Indian
// passport data page, and documents of states outside the catalogue are
// `other`.
func TestZoneSettlesRealDocuments(t *testing.T) {
	skipWithoutRealdata(t)
	m := testModels(true)
	zr := openTestZoneReader(t, m)
	cl := openTestClassifier(t, m)
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
			img := realPage(t, c.file)
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
