package params

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strconv"
	"testing"

	"docsuite/pkg/apierr"
)

func TestClassifyDefaults(t *testing.T) {
	c, err := ParseClassify(url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	want := Classify{MinShape: 256, MinFilesize: 10240, MaxExposureScore: 0.4, MinExposureScore: 0.05,
		MaxBlurScore: 2, Priority: 1, PDFRawImages: true, AutoPDFRawImages: true, DPI: 300, Quality: 75, ReturnCrops: true}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("defaults\n got %+v\nwant %+v", c, want)
	}
}

func TestClassifyValues(t *testing.T) {
	q, _ := url.ParseQuery("doc_type=passport_main&doc_type=snils_front,inn_person&task_tags=a,b&async=TRUE&return_crops=0&gauss=7&check_fake_experimental=whatever&quality=0&mode=classify_only")
	c, err := ParseClassify(q)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.DocTypes, []string{"passport_main", "snils_front", "inn_person"}) ||
		!reflect.DeepEqual(c.TaskTags, []string{"a", "b"}) || !c.Async || c.ReturnCrops || c.Quality != 0 || !c.NoCrop() {
		t.Errorf("got %+v", c)
	}
}

func TestClassifyErrors(t *testing.T) {
	tests := []struct{ query, loc string }{
		{"min_shape=0", "min_shape"},
		{"min_shape=abc", "min_shape"},
		{"min_filesize=-5", "min_filesize"},
		{"max_exposure_score=0", "max_exposure_score"},
		{"min_exposure_score=x", "min_exposure_score"},
		{"max_blur_score=-1", "max_blur_score"},
		{"priority=0", "priority"},
		{"async=yes", "async"},
		{"dpi=0", "dpi"},
		{"quality=101", "quality"},
		{"doc_type=passport_main,nonsense", "doc_type"},
		{"mode=fast", "mode"},
		{"return_crops=2", "return_crops"},
		// Repeated with different values: the invalid one is not hidden
		// behind a valid last one, whichever order they come in.
		{"async=maybe&async=false", "async"},
		{"min_shape=abc&min_shape=100", "min_shape"},
		{"min_shape=100&min_shape=abc", "min_shape"},
		{"dpi=200&dpi=300", "dpi"},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			_, err := ParseClassify(q)
			e := apierr.As(err)
			if e.Code != apierr.InvalidParameter || len(e.Detail) != 1 || e.Detail[0].Loc[1] != tc.loc {
				t.Errorf("got %v (%+v)", err, e.Detail)
			}
		})
	}
}

// TestRepeatedSameValue: a parameter repeated with one value is that value.
func TestRepeatedSameValue(t *testing.T) {
	q, _ := url.ParseQuery("async=true&async=TRUE&dpi=200&dpi=200")
	c, err := ParseClassify(q)
	if err != nil || !c.Async || c.DPI != 200 {
		t.Fatalf("got %+v, %v", c, err)
	}
}

func TestRecognize(t *testing.T) {
	p, err := ParseRecognize(url.Values{})
	if err != nil || p.ReturnCrops || !p.UseInternalAPI || p.Mode != "default" {
		t.Errorf("defaults %+v %v", p, err)
	}
}

// mode=recognize_only reads every page as the one type an earlier
// classification gave it: doc_type must name exactly one type (repeated
// is fine); none or two different ones answer 422 naming doc_type. Two
// types were accepted, and all but the first ignored.
func TestRecognizeOnlyType(t *testing.T) {
	for _, tc := range []struct {
		query string
		want  string // the type read; "" for a 422 naming doc_type
	}{
		{"mode=recognize_only&doc_type=passport_main", "passport_main"},
		{"mode=recognize_only&doc_type=passport_main&doc_type=passport_main", "passport_main"},
		{"mode=recognize_only&doc_type=passport_registration,passport_registration", "passport_registration"},
		{"mode=recognize_only", ""},
		{"mode=recognize_only&doc_type=passport_main,passport_registration", ""},
		{"mode=recognize_only&doc_type=passport_main&doc_type=snils_front", ""},
		{"mode=recognize_only&doc_type=passport_main&doc_type=passport_main&doc_type=other", ""},
	} {
		t.Run(tc.query, func(t *testing.T) {
			q, _ := url.ParseQuery(tc.query)
			p, err := ParseRecognize(q)
			if tc.want == "" {
				e := apierr.As(err)
				if e.Code != apierr.InvalidParameter || len(e.Detail) != 1 || e.Detail[0].Loc[1] != "doc_type" {
					t.Fatalf("got %+v, %v; want a 422 naming doc_type", p, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got, err := p.OnlyType(); got != tc.want || err != nil {
				t.Errorf("OnlyType %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	// Without recognize_only doc_type filters the classified documents
	// and may name any number of types.
	q, _ := url.ParseQuery("doc_type=passport_main,passport_registration")
	if p, err := ParseRecognize(q); err != nil || len(p.DocTypes) != 2 {
		t.Errorf("default mode with two types: %+v, %v", p, err)
	}
}

// TestSpecBoundsAndDefaults ties the documented defaults, minima and
// maxima (what /openapi.json publishes) to the parser: a request without
// the parameter gets the documented default, a value on a bound is taken,
// one past it is refused by name.
func TestSpecBoundsAndDefaults(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spec  []Param
		parse func(url.Values) (any, error)
	}{
		{"classify", ClassifySpec(), func(q url.Values) (any, error) { return ParseClassify(q) }},
		{"recognize", RecognizeSpec(), func(q url.Values) (any, error) { return ParseRecognize(q) }},
	} {
		got, err := tc.parse(url.Values{})
		if err != nil {
			t.Fatalf("%s: defaults: %v", tc.name, err)
		}
		raw, _ := json.Marshal(got)
		var parsed map[string]any
		_ = json.Unmarshal(raw, &parsed)
		for _, p := range tc.spec {
			if p.Default != nil {
				want, _ := json.Marshal(p.Default)
				have, _ := json.Marshal(parsed[p.Name])
				if string(want) != string(have) {
					t.Errorf("%s: %s defaults to %s, documented %s", tc.name, p.Name, have, want)
				}
			}
			if p.Type != "integer" && p.Type != "number" || p.Deprecated {
				continue
			}
			step := 1.0
			if p.Type == "number" {
				step = 1e-3
			}
			check := func(v float64, ok bool) {
				s := strconv.FormatFloat(v, 'f', -1, 64)
				_, err := tc.parse(url.Values{p.Name: {s}})
				if ok && err != nil {
					t.Errorf("%s: %s=%s is within the documented bounds but refused: %v", tc.name, p.Name, s, err)
				}
				if e := apierr.As(err); !ok && (err == nil || e.Code != apierr.InvalidParameter || e.Detail[0].Loc[1] != p.Name) {
					t.Errorf("%s: %s=%s is outside the documented bounds but not refused by name: %v", tc.name, p.Name, s, err)
				}
			}
			if p.Type == "number" {
				// Documented as exclusiveMinimum 0.
				check(0, false)
				check(step, true)
			}
			if p.Minimum != nil {
				check(*p.Minimum, true)
				check(*p.Minimum-step, false)
			}
			if p.Maximum == nil {
				t.Errorf("%s: %s has no documented maximum, but the parser has one", tc.name, p.Name)
				continue
			}
			check(*p.Maximum, true)
			check(*p.Maximum+max(step, *p.Maximum*1e-6), false)
		}
	}
}

// TestSpecMatchesParser ties the documented parameters to the parser: a
// documented typed parameter given a wrong value must be refused by name.
func TestSpecMatchesParser(t *testing.T) {
	bad := map[string]string{"integer": "x", "number": "x", "boolean": "maybe"}
	for _, tc := range []struct {
		name  string
		spec  []Param
		parse func(url.Values) error
	}{
		{"classify", ClassifySpec(), func(q url.Values) error { _, err := ParseClassify(q); return err }},
		{"recognize", RecognizeSpec(), func(q url.Values) error { _, err := ParseRecognize(q); return err }},
	} {
		for _, p := range tc.spec {
			v, ok := bad[p.Type]
			if !ok || p.Deprecated {
				continue
			}
			err := tc.parse(url.Values{p.Name: {v}})
			e := apierr.As(err)
			if e.Code != apierr.InvalidParameter || e.Detail[0].Loc[1] != p.Name {
				t.Errorf("%s: %s=%s not refused by name: %v", tc.name, p.Name, v, err)
			}
		}
	}
}

// TestTooLargeScoreSaysSo: a threshold over the maximum is refused as too
// large, not with "ensure this value is greater than 0".
func TestTooLargeScoreSaysSo(t *testing.T) {
	_, err := ParseClassify(url.Values{"max_blur_score": {"1e10"}})
	e := apierr.As(err)
	if len(e.Detail) != 1 || e.Detail[0].Type != "value_error.number.not_le" || e.Detail[0].Msg != "ensure this value is less than or equal to 1000000000" {
		t.Errorf("got %v (%+v)", err, e.Detail)
	}
}
