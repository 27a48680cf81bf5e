package roles

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"testing"

	"docsuite/pkg/apierr"
	"docsuite/pkg/membudget"
	"docsuite/pkg/params"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
)

// TestRecognizeOnlyNamesOneType: with mode=recognize_only every page is
// read as the one type of its earlier classification. A request naming
// one type (once or repeated) is read as that type; one naming two
// different types is refused, 422 naming doc_type, where the page was read
// as the first and the others ignored (a task queued by an older gateway,
// which did not refuse it, is refused by the worker the same way).
func TestRecognizeOnlyNamesOneType(t *testing.T) {
	ex, err := openExtractor(testModels(false), testLog(), 1)
	if err != nil {
		t.Skipf("extraction engine not available (text models or Tesseract rus): %v", err)
	}
	t.Cleanup(ex.close)
	st, err := store.NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewGray(image.Rect(0, 0, 320, 240))
	for i := range img.Pix {
		img.Pix[i] = uint8(200 + i%37)
	}
	img.Set(10, 10, color.Black)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.Put(ctx, "in/page.png", buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	d := Deps{Store: st, Log: testLog()}
	for _, tc := range []struct {
		name  string
		types []string
		want  string // the doc_type answered; "" for a 422 naming doc_type
	}{
		{"one type", []string{"other"}, "other"},
		{"one type repeated", []string{"other", "other"}, "other"},
		{"two types", []string{"other", "snils_front"}, ""},
		{"main spread or residence page", []string{"passport_main", "passport_registration"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := params.Recognize{Mode: "recognize_only", DocTypes: tc.types, DPI: 300, Quality: 75, PDFRawImages: true, AutoPDFRawImages: true}
			req := stages.MethodRequest{Method: "recognize", TaskID: "t", InputKey: "in/page.png", Size: int64(buf.Len()), Params: p,
				MaxPages: 10, MaxPixels: 1 << 24}
			body, err := recognize(ctx, d, ex.x, normalizers{}, membudget.New(1<<30), req, t.TempDir())
			if tc.want == "" {
				e := apierr.As(err)
				if e.Code != apierr.InvalidParameter || len(e.Detail) != 1 || e.Detail[0].Loc[1] != "doc_type" {
					t.Fatalf("answered %s, %v; want a 422 naming doc_type", body, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var resp RecognizeResponse
			if err := json.Unmarshal(body, &resp); err != nil {
				t.Fatal(err)
			}
			if len(resp.Items) != 1 || resp.Items[0].DocType != tc.want {
				t.Errorf("items %+v, want one %s", resp.Items, tc.want)
			}
		})
	}
}
