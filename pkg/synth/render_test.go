package synth

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"docsuite/pkg/doctypes"
)

func newTestGenerator(t *testing.T, cfg Config) *Generator {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return g
}

// checkMRZFields validates the check digits of whatever MRZ a document has.
func checkMRZFields(t *testing.T, typ string, f map[string]string) {
	t.Helper()
	l1, l2, l3 := f["mrz_1"], f["mrz_2"], f["mrz_3"]
	switch {
	case l1 == "":
		return
	case l3 != "":
		if !ValidTD1(l1, l2) {
			t.Errorf("%s: TD1 check digits invalid:\n%s\n%s", typ, l1, l2)
		}
	case len(l2) == 36:
		if !ValidTD2(l2) {
			t.Errorf("%s: TD2 check digits invalid: %s", typ, l2)
		}
	default:
		if !ValidTD3(l2) {
			t.Errorf("%s: TD3 check digits invalid: %s", typ, l2)
		}
	}
	for _, l := range []string{l1, l2, l3} {
		if strings.Trim(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<") != "" {
			t.Errorf("%s: MRZ line has characters outside the MRZ set: %q", typ, l)
		}
	}
}

func TestAllTypesRender(t *testing.T) {
	g := newTestGenerator(t, Config{Seed: 3})
	for _, typ := range doctypes.All() {
		for i := 0; i < 3; i++ {
			d, err := g.RenderType(typ, 3, i)
			if err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
			b := d.Img.Rect
			if b.Dx() < 200 || b.Dy() < 200 {
				t.Errorf("%s: image too small: %v", typ, b)
			}
			// a document has ink: not every pixel equal
			first := d.Img.Pix[4*(b.Dx()/2)+b.Dy()/2*d.Img.Stride]
			varied := false
			for k := 0; k < len(d.Img.Pix); k += 4 * 97 {
				if d.Img.Pix[k] != first {
					varied = true
					break
				}
			}
			if !varied {
				t.Errorf("%s: blank render", typ)
			}
			checkMRZFields(t, typ, d.Fields)
			for k, v := range d.Fields {
				if v == "" && k != "district" {
					t.Errorf("%s: field %s is empty", typ, k)
				}
			}
		}
	}
}

func TestPassportMainFields(t *testing.T) {
	g := newTestGenerator(t, Config{Seed: 5})
	want := map[string]*regexp.Regexp{
		"series_and_number": regexp.MustCompile(`^\d{4} \d{6}$`),
		"surname":           regexp.MustCompile(`^[А-ЯЁ-]+$`),
		"first_name":        regexp.MustCompile(`^[А-ЯЁ]+$`),
		"other_names":       regexp.MustCompile(`^[А-ЯЁ]+$`),
		"sex":               regexp.MustCompile(`^(МУЖ|ЖЕН)\.$`),
		"date_of_birth":     regexp.MustCompile(`^\d\d\.\d\d\.\d{4}$`),
		"place_of_birth":    regexp.MustCompile(`\S`),
		"date_of_issue":     regexp.MustCompile(`^\d\d\.\d\d\.\d{4}$`),
		"subdivision_code":  regexp.MustCompile(`^\d{3}-\d{3}$`),
		"issuing_authority": regexp.MustCompile(`\S`),
		"mrz_1":             regexp.MustCompile(`^PNRUS[A-Z0-9<]{39}$`),
		"mrz_2":             regexp.MustCompile(`^[0-9A-Z<]{44}$`),
		"page_number":       regexp.MustCompile(`^2-3$`),
	}
	full, zoned, zoneless := 0, 0, 0
	for i := 0; i < 24; i++ {
		d, err := g.RenderType("passport_main", 5, i)
		if err != nil {
			t.Fatal(err)
		}
		// The older form has no machine-readable zone: neither line.
		_, z1 := d.Fields["mrz_1"]
		_, z2 := d.Fields["mrz_2"]
		if z1 != z2 {
			t.Fatalf("instance %d: one zone line without the other: %q %q", i, d.Fields["mrz_1"], d.Fields["mrz_2"])
		}
		if !z1 {
			zoneless++
		} else {
			zoned++
		}
		if _, ok := d.Fields["issuing_authority"]; !ok {
			continue // only the photo page was kept
		}
		full++
		for k, re := range want {
			if !z1 && strings.HasPrefix(k, "mrz_") {
				continue
			}
			if !re.MatchString(d.Fields[k]) {
				t.Errorf("passport_main %s = %q, want %v", k, d.Fields[k], re)
			}
		}
		sn := strings.ReplaceAll(d.Fields["series_and_number"], " ", "")
		if m := d.Fields["mrz_2"]; z1 && (m[:9] != sn[:3]+sn[4:] || m[28:29] != sn[3:4]) {
			t.Errorf("MRZ %q does not carry series and number %q", m, sn)
		}
	}
	if full == 0 {
		t.Fatal("no full spread rendered")
	}
	if zoned == 0 || zoneless == 0 {
		t.Fatalf("%d instances with a zone, %d without: want both forms", zoned, zoneless)
	}
}

func TestDeterminism(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Seed: 11, Size: 640, Effects: DefaultEffects()}
	a, b := newTestGenerator(t, cfg), newTestGenerator(t, cfg)
	cfg.Seed = 12
	c := newTestGenerator(t, cfg)
	for i := 0; i < 4; i++ {
		sa, err := a.Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := b.Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		sc, err := c.Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		ja, _ := EncodeJPEG(sa.Img, sa.Quality)
		jb, _ := EncodeJPEG(sb.Img, sb.Quality)
		jc, _ := EncodeJPEG(sc.Img, sc.Quality)
		if !bytes.Equal(ja, jb) {
			t.Errorf("scene %d: same seed, different bytes", i)
		}
		if bytes.Equal(ja, jc) {
			t.Errorf("scene %d: different seeds, same bytes", i)
		}
		ra, rb := sa.Record("x.jpg"), sb.Record("x.jpg")
		if len(ra.Documents) != len(rb.Documents) {
			t.Fatalf("scene %d: document counts differ", i)
		}
		for k := range ra.Documents {
			if ra.Documents[k].Quad != rb.Documents[k].Quad || ra.Documents[k].Type != rb.Documents[k].Type {
				t.Errorf("scene %d doc %d: ground truth differs", i, k)
			}
		}
	}
}

func TestScenesCoverTypesAndStayInside(t *testing.T) {
	ctx := context.Background()
	g := newTestGenerator(t, Config{Seed: 2, Size: 480, Effects: DefaultEffects()})
	seen := map[string]bool{}
	n := len(doctypes.All())
	for i := 0; i < n; i++ {
		sc, err := g.Scene(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		W, H := float64(sc.Img.Rect.Dx()), float64(sc.Img.Rect.Dy())
		for _, d := range sc.Docs {
			seen[d.Type] = true
			if !d.Rotation.Valid() {
				t.Errorf("scene %d: rotation %d", i, d.Rotation)
			}
			if doctypes.IsSpecial(d.Type) && d.Rotation != 0 {
				t.Errorf("scene %d: special %s reports rotation %d", i, d.Type, d.Rotation)
			}
			for _, p := range d.Quad {
				if p.X < 0 || p.Y < 0 || p.X > W || p.Y > H {
					t.Errorf("scene %d: %s corner %v outside %vx%v", i, d.Type, p, W, H)
				}
			}
		}
	}
	if len(seen) != n {
		t.Errorf("%d scenes covered %d of %d types", n, len(seen), n)
	}
}

// TestPrintedValues requires the values a type prints to include its
// holder's names, and to leave out fields drawn as handwriting.
func TestPrintedValues(t *testing.T) {
	cat, err := LoadCatalogue()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		typ       string
		wantNames bool
	}{
		{"passport_main", true},
		{"passport_main_handwritten", false},
		{"snils_front", true},
	} {
		tpl, ok := cat.Get(c.typ)
		if !ok {
			t.Fatalf("%s not in the catalogue", c.typ)
		}
		n := 0
		for _, v := range tpl.PrintedValues(1, 50) {
			for _, p := range append(names["ru"].givM, names["ru"].givF...) {
				if strings.Contains(strings.ToUpper(v), strings.ToUpper(p)) {
					n++
				}
			}
		}
		if got := n > 0; got != c.wantNames {
			t.Errorf("%s: %d values hold a Russian given name; want some: %v", c.typ, n, c.wantNames)
		}
	}
}
