package classify

import (
	"context"
	"reflect"
	"sort"
	"testing"

	"docsuite/pkg/doctypes"
	"docsuite/pkg/stages"
	"docsuite/pkg/synth"
)

// TestMRZCodesMatchTemplates rebuilds the zone table from the factory's
// templates (each type whose template prints a zone, under its kind and
// country) and requires the shipped mrzcodes.json to be the same.
func TestMRZCodesMatchTemplates(t *testing.T) {
	cat, err := synth.LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	want := MRZCodes{}
	for _, typ := range cat.Types() {
		tpl, ok := cat.Get(typ)
		if !ok || doctypes.IsSpecial(typ) {
			continue
		}
		for _, e := range tpl.Elements {
			if e.Kind != "mrz" {
				continue
			}
			country := tpl.Country
			if country == "" {
				country = "RUS"
			}
			code := e.Text
			switch {
			case e.Style == "rus":
				code = "PN"
			case code == "" && e.Style == "td1":
				code = "ID"
			case code == "":
				code = "P"
			}
			k := ZoneKey(Zone{DocumentCode: code, Issuer: country})
			want[k] = append(want[k], typ)
		}
	}
	for k := range want {
		sort.Strings(want[k])
	}
	got, err := LoadMRZCodes()
	if err != nil {
		t.Fatal(err)
	}
	for k := range got {
		sort.Strings(got[k])
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mrzcodes.json differs from the templates:\n got %v\nwant %v", got, want)
	}
}

func TestZoneKey(t *testing.T) {
	cases := []struct {
		code, issuer, want string
	}{
		{"PN", "RUS", "PN RUS"},
		{"P", "RUS", "P RUS"},
		{"P<", "IND", "P IND"},
		{"PN", "UKR", "P UKR"}, // PN elsewhere is an ordinary passport code
		{"ID", "KAZ", "I KAZ"},
		{"I", "D", "I D"},
		{"AC", "UTO", "I UTO"},
		{"V", "UTO", "V UTO"},
	}
	for _, c := range cases {
		if got := ZoneKey(Zone{DocumentCode: c.code, Issuer: c.issuer}); got != c.want {
			t.Errorf("ZoneKey(%q, %q) = %q, want %q", c.code, c.issuer, got, c.want)
		}
	}
}

func TestApplyZone(t *testing.T) {
	codes, err := LoadMRZCodes()
	if err != nil {
		t.Fatal(err)
	}
	classes := []string{"ind_passport_2000_main", "ind_passport_2008_main", "pak_passport_2013_main", "passport_main", "not_document", "other"}
	// The picture says not_document: the zone must overrule it.
	p := []float64{0.02, 0.05, 0.03, 0.0, 0.9, 0.0}
	pictured := stages.ClassifyReply{Type: "not_document", Confidence: 0.9, Top: []stages.Score{{Type: "not_document", Probability: 0.9}}}
	cases := []struct {
		name     string
		zone     Zone
		allowed  []string
		wantType string
		wantConf float64
	}{
		{"valid Indian zone picks the likelier Indian year", Zone{"P", "IND", "IND", true, 0.97}, nil, "ind_passport_2008_main", ValidZoneTrust * 0.05 / 0.07},
		{"valid Pakistani zone", Zone{"P", "PAK", "PAK", true, 0.95}, nil, "pak_passport_2013_main", ValidZoneTrust},
		{"valid zone read with little confidence is still trusted", Zone{"P", "PAK", "PAK", true, 0.72}, nil, "pak_passport_2013_main", ValidZoneTrust},
		{"misread issuer found by nationality", Zone{"P", "PHU", "PAK", true, 0.92}, nil, "pak_passport_2013_main", 0.92},
		{"Russian internal zone the picture gave nothing", Zone{"PN", "RUS", "RUS", true, 0.99}, nil, "passport_main", 0.99},
		{"foreign zone is other", Zone{"ID", "D", "D", true, 0.93}, nil, "other", ValidZoneTrust},
		{"visa is other", Zone{"V", "UTO", "UTO", true, 0.93}, nil, "other", ValidZoneTrust},
		{"known issuer, unknown kind is other", Zone{"I", "IND", "IND", true, 0.9}, nil, "other", ValidZoneTrust},
		{"issuer and nationality misread leave the picture", Zone{"I", "DKU", "DKU", true, 0.83}, nil, "not_document", 0.9},
		{"misread issuer, foreign nationality is other", Zone{"I", "DKU", "DEU", true, 0.83}, nil, "other", 0.83},
		{"lost P< shifts the issuer into the code: nationality, any kind", Zone{"IN", "DKU", "IND", true, 0.7}, nil, "ind_passport_2008_main", 0.7 * 0.05 / 0.07},
		{"untrusted zone changes nothing", Zone{"P", "PAK", "PAK", false, 0.6}, nil, "not_document", 0.9},
		{"confident zone with a bad check digit counts", Zone{"P", "PAK", "PAK", false, 0.95}, nil, "pak_passport_2013_main", 0.95},
		{"zone outside the doc_type list is other", Zone{"P", "PAK", "PAK", true, 0.95}, []string{"passport_main"}, "other", ValidZoneTrust},
		{"doc_type list narrows the zone's types", Zone{"P", "IND", "IND", true, 0.9}, []string{"ind_passport_2000_main"}, "ind_passport_2000_main", ValidZoneTrust},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ApplyZone(pictured, c.zone, codes, classes, p, c.allowed)
			if got.Type != c.wantType || abs(got.Confidence-c.wantConf) > 1e-3 {
				t.Errorf("got %s %.4f, want %s %.4f", got.Type, got.Confidence, c.wantType, c.wantConf)
			}
			if got.Confidence < 0 || got.Confidence > 1 || len(got.Top) == 0 || got.Top[0].Type != got.Type {
				t.Errorf("inconsistent reply %+v", got)
			}
		})
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func TestRuleOutNonDocuments(t *testing.T) {
	classes := []string{"snils_front", "other", "not_document", "empty"}
	cases := []struct {
		name string
		p    []float64
		want []float64
	}{
		{"picture says not a document", []float64{0.1, 0.1, 0.7, 0.1}, []float64{0.5, 0.5, 0, 0}},
		{"nothing else probable: unchanged", []float64{0, 0, 0.6, 0.4}, []float64{0, 0, 0.6, 0.4}},
		{"already a document", []float64{0.8, 0.2, 0, 0}, []float64{0.8, 0.2, 0, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := append([]float64(nil), c.p...)
			ruleOutNonDocuments(classes, p)
			for i := range p {
				if abs(p[i]-c.want[i]) > 1e-9 {
					t.Fatalf("got %v, want %v", p, c.want)
				}
			}
		})
	}
}

// TestZoneKeysListOneFamily guards what ZoneSettles relies on: the types
// one zone key lists are variants of one family (doctypes.Family), which
// the printed words weigh alike, so a settling zone's answer does not
// depend on them.
func TestZoneKeysListOneFamily(t *testing.T) {
	codes, err := LoadMRZCodes()
	if err != nil {
		t.Fatal(err)
	}
	for key, types := range codes {
		for _, typ := range types[1:] {
			if doctypes.Family(typ) != doctypes.Family(types[0]) {
				t.Errorf("zone key %q lists %s and %s, of two families", key, types[0], typ)
			}
		}
	}
}

// TestZoneMayCount checks the gate on the zone reading on held-out
// factory crops: every document whose type carries a zone (and every
// `other`) must still be searched for one, and most documents of types
// printing none are spared the search, which is the point of the gate.
func TestZoneMayCount(t *testing.T) {
	c := open(t)
	carries := map[string]bool{doctypes.Other: true}
	for _, i := range c.zoneIdx {
		carries[c.head.Classes[i]] = true
	}
	if !carries["passport_main"] || !carries["kz_id_2014_back"] || carries["snils_front"] {
		t.Fatalf("classes a zone speaks for: %v", carries)
	}
	var zoneDocs, plain, spared int
	for _, cr := range heldOutCrops(t, 40) {
		out, err := c.Outputs(context.Background(), cr.Img)
		if err != nil {
			t.Fatal(err)
		}
		may := c.ZoneMayCount(out)
		switch {
		case carries[cr.Type]:
			zoneDocs++
			if !may {
				t.Errorf("a %s crop would not be searched for its zone", cr.Type)
			}
		case !doctypes.IsSpecial(cr.Type):
			plain++
			if !may {
				spared++
			}
		}
	}
	t.Logf("%d crops of zone types searched; %d of %d crops of other types spared", zoneDocs, spared, plain)
	if zoneDocs == 0 || spared*2 < plain {
		t.Errorf("%d zone crops; %d of %d crops without a zone spared: want at least half", zoneDocs, spared, plain)
	}
	if !c.ZoneMayCount(map[string][]float32{}) {
		t.Error("without the type head the zone must be looked for")
	}
}
