package synth

import "testing"

// TestSpecimenMarkOverlaysOnly renders the same instances with and without
// specimen marks at a strength that marks every one: the mark must change
// some of the document's pixels, and only as an overlay (most pixels, the
// size, the fields and their boxes stay those of the unmarked instance).
func TestSpecimenMarkOverlaysOnly(t *testing.T) {
	plain := newTestGenerator(t, Config{Seed: 5, Size: 640})
	marked := newTestGenerator(t, Config{Seed: 5, Size: 640, Effects: Effects{Specimen: 1 / specimenChance}})
	for _, typ := range []string{"passport_main", "driver_license_japan", "kz_id_2008_front", "other"} {
		t.Run(typ, func(t *testing.T) {
			for i := 0; i < 3; i++ {
				a, err := plain.RenderType(typ, 7, i)
				if err != nil {
					t.Fatal(err)
				}
				b, err := marked.RenderType(typ, 7, i)
				if err != nil {
					t.Fatal(err)
				}
				if a.Img.Rect != b.Img.Rect {
					t.Fatalf("instance %d: size %v, marked %v", i, a.Img.Rect, b.Img.Rect)
				}
				changed := 0
				for p := 0; p < len(a.Img.Pix); p += 4 {
					if a.Img.Pix[p] != b.Img.Pix[p] || a.Img.Pix[p+1] != b.Img.Pix[p+1] || a.Img.Pix[p+2] != b.Img.Pix[p+2] {
						changed++
					}
				}
				share := float64(changed) / float64(len(a.Img.Pix)/4)
				if share < 0.002 || share > 0.3 {
					t.Errorf("instance %d: the mark changed %.1f %% of the pixels, want 0.2 to 30 %%", i, 100*share)
				}
				if len(a.Fields) != len(b.Fields) {
					t.Errorf("instance %d: %d fields, marked %d", i, len(a.Fields), len(b.Fields))
				}
				for k, v := range a.Fields {
					if b.Fields[k] != v || b.Boxes[k] != a.Boxes[k] {
						t.Errorf("instance %d: field %s differs once marked", i, k)
					}
				}
			}
		})
	}
}
