package fraud

import "testing"

func TestPickFormBox(t *testing.T) {
	// a spread 125 x 176 mm whose lower half (125 x 88) holds the portrait
	spread := []formBox{{aspect: 125.0 / 176, box: [4]float64{0.03, 0.61, 0.30, 0.86}},
		{aspect: 125.0 / 88, box: [4]float64{0.03, 0.23, 0.30, 0.73}}}
	cases := []struct {
		name  string
		boxes []formBox
		w, h  int
		want  [4]float64
		ok    bool
	}{
		{"whole spread", spread, 700, 990, spread[0].box, true},
		{"lower half alone", spread, 1000, 700, spread[1].box, true},
		{"a card with one box", spread[:1], 1000, 630, spread[0].box, true},
		{"a type without a portrait", nil, 1000, 630, [4]float64{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := pick(c.boxes, c.w, c.h)
			if got != c.want || ok != c.ok {
				t.Errorf("pick = %v, %v; want %v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestFormsKnowsPassportMain(t *testing.T) {
	photos, zoned, err := forms()
	if err != nil {
		t.Fatal(err)
	}
	if !zoned["passport_main"] || len(photos["passport_main"]) != 2 {
		t.Fatalf("passport_main: zoned %v, %d portrait boxes; want a zone and boxes for the spread and its half",
			zoned["passport_main"], len(photos["passport_main"]))
	}
	if zoned["snils_front"] {
		t.Error("snils_front has no machine-readable zone")
	}
}
