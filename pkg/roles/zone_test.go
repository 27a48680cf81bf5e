package roles

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"docsuite/pkg/cvimg"
	"docsuite/pkg/doctypes"
	"docsuite/pkg/geom"
)

// TestZoneSettlesRealDocuments classifies real scans whose picture alone
// misleads the type network and checks that the zone read on them names
// the right type: the issuing state settles a Pakistani and an Indian
// passport data page, and documents of states outside the catalogue are
// `other`. A photo taken sideways is read as well as the upright one: its
// zone is looked for on the crop turned by the orientation found, with
// its text lines detected again there (detected sideways, the Indian
// passport's two zone lines came out in pieces and the zone was missed).
func TestZoneSettlesRealDocuments(t *testing.T) {
	skipWithoutRealdata(t)
	m := testModels(true)
	zr := openTestZoneReader(t, m)
	cl := openTestClassifier(t, m)
	cases := []struct {
		file           string
		turn           geom.Rotation // how the test turns the upright page
		issuer, family string
	}{
		{"iAmmarTahir-MASK-RCNN-Dataset/PakPass__Original__2.jpg", 0, "PAK", "pak_passport_2013_main"},
		{"mindee-client-lib-test-data/v1__products__ind_passport__default_sample.jpg", 0, "IND", "ind_passport"},
		{"mindee-client-lib-test-data/v1__products__ind_passport__default_sample.jpg", 1, "IND", "ind_passport"},
		{"mindee-client-lib-test-data/v1__products__ind_passport__default_sample.jpg", 3, "IND", "ind_passport"},
		// Mirrored, the Indian passport's lines read best unmirrored, then
		// half turned: its zone is found on the third view tried, the
		// first one mirrored (geom.Rotation.Flipped).
		{"iAmmarTahir-MASK-RCNN-Dataset/IndPass__Original__25.jpg", 4, "IND", "ind_passport"},
		{"iAmmarTahir-MASK-RCNN-Dataset/IndPass__Original__25.jpg", 7, "IND", "ind_passport"},
		{"PassportEye/passporteye__mrz__testdata__100_pass-cze.jpg", 0, "CZE", doctypes.Other},
		{"PassportEye/passporteye__mrz__testdata__100_id-rou.jpg", 0, "ROU", doctypes.Other},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/turned_%d", filepath.Base(c.file), c.turn), func(t *testing.T) {
			img, err := cvimg.Turn(realPage(t, c.file), c.turn)
			if err != nil {
				t.Fatal(err)
			}
			ev, rot, conf, err := zr.Read(context.Background(), img)
			t.Logf("orientation %v (%.2f)", rot, conf)
			if err != nil {
				t.Fatal(err)
			}
			if c.turn != 0 && rot != c.turn.Inverse() {
				t.Errorf("orientation %v, want %v", rot, c.turn.Inverse())
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
