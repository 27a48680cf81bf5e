package roles

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"log/slog"
	"testing"
	"time"

	"docsuite/pkg/config"
	"docsuite/pkg/decode"
	"docsuite/pkg/membudget"
	"docsuite/pkg/ocr"
	"docsuite/pkg/params"
	"docsuite/pkg/pipeline"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
	"docsuite/pkg/testutil"
)

// pngDoc is an opened w x h grey PNG and its bytes.
func pngDoc(t *testing.T, w, h int) (decode.Document, []byte) {
	t.Helper()
	var buf bytes.Buffer
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(180 + i%50)
	}
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	doc, err := decode.Open(context.Background(), buf.Bytes(), decode.Options{DPI: 300, MaxPages: 10, MaxPixels: 1 << 24})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = doc.Close() })
	return doc, buf.Bytes()
}

// fullBudget is a budget all of whose memory is taken until the test ends.
func fullBudget(t *testing.T) *membudget.Budget {
	t.Helper()
	b := membudget.New(1 << 30)
	leave, err := b.Acquire(context.Background(), b.Size(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(leave)
	return b
}

// TestPageEstimate: a worker's share of a page is its decoding's peak,
// its own bytes a pixel and a request's fixed share.
func TestPageEstimate(t *testing.T) {
	c := decode.Cost{Pixels: 100_000_000, Peak: 1_500_000_000, Page: 300_000_000}
	for _, tc := range []struct {
		name     string
		perPixel int64
		want     int64
	}{
		{"ocr", ocrPageBytes, 1_500_000_000 + 1_000_000_000 + pageRequestBytes},
		{"fraud", fraudPageBytes, 1_500_000_000 + 400_000_000 + pageRequestBytes},
	} {
		if got := pageEstimate(c, tc.perPixel); got != tc.want {
			t.Errorf("%s: estimate %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestAdmitPageWaitsForMemory: a page that does not fit beside one being
// worked on waits (logged), is admitted once that one's share is given
// back, and a waiter whose request ends leaves with its error.
func TestAdmitPageWaitsForMemory(t *testing.T) {
	doc, _ := pngDoc(t, 1000, 1000)
	c, err := decode.PageCost(context.Background(), doc, 0)
	if err != nil {
		t.Fatal(err)
	}
	one := pageEstimate(c, ocrPageBytes)
	b := membudget.New(one + one/2)
	h := &testutil.LogCounter{Substring: "waits for memory"}
	d := Deps{Log: slog.New(h)}
	ctx := context.Background()
	first, err := admitPage(ctx, d, b, "ocr", "t", doc, 0, ocrPageBytes)
	if err != nil {
		t.Fatal(err)
	}
	if b.InUse() != one {
		t.Fatalf("in use %d after one page, want %d", b.InUse(), one)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := admitPage(short, d, b, "ocr", "t", doc, 0, ocrPageBytes); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("second page beside the first: %v, want it to wait until its request ends", err)
	}
	admitted := make(chan func())
	go func() {
		leave, err := admitPage(ctx, d, b, "ocr", "t", doc, 0, ocrPageBytes)
		if err != nil {
			t.Error(err)
			close(admitted)
			return
		}
		admitted <- leave
	}()
	time.Sleep(20 * time.Millisecond)
	first()
	select {
	case leave := <-admitted:
		if leave != nil {
			leave()
		}
	case <-time.After(5 * time.Second):
		t.Fatal("second page not admitted once the first gave its share back")
	}
	if h.Count() < 2 || b.InUse() != 0 {
		t.Errorf("%d waits logged, %d bytes in use after all: want 2 and 0", h.Count(), b.InUse())
	}
}

// TestFraudPagesWaitForMemory: the fraud worker decodes a page only once
// the page budget admits it, and gives its share back after the page's
// last document.
func TestFraudPagesWaitForMemory(t *testing.T) {
	doc, _ := pngDoc(t, 400, 300)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	pages := fraudPages(ctx, Deps{Log: testLog()}, fullBudget(t), "t", doc, itemsOnPages(1))
	if _, err := pages.get(1); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("page decoded beside a full budget: %v", err)
	}
	b := membudget.New(1 << 30)
	pages = fraudPages(context.Background(), Deps{Log: testLog()}, b, "t", doc, itemsOnPages(1, 1))
	for range 2 {
		if _, err := pages.get(1); err != nil {
			t.Fatal(err)
		}
		if b.InUse() == 0 {
			t.Fatal("page decoded with no share of the budget")
		}
	}
	pages.done(1)
	if b.InUse() == 0 {
		t.Error("share given back before the page's last document")
	}
	pages.done(1)
	if b.InUse() != 0 {
		t.Errorf("%d bytes in use after the page's last document", b.InUse())
	}
}

// TestPageCacheGivesBackAFailedPage: a page whose decoding fails gives its
// share back at once.
func TestPageCacheGivesBackAFailedPage(t *testing.T) {
	given := 0
	cache := newPageCache(itemsOnPages(1, 1), func(int) (image.Image, func(), error) {
		return nil, func() { given++ }, errors.New("broken")
	})
	if _, err := cache.get(1); err == nil {
		t.Fatal("no error")
	}
	cache.done(1)
	cache.done(1)
	if given != 1 {
		t.Errorf("share given back %d times, want 1", given)
	}
}

// TestFulltextPageWaitsForMemory: fulltext decodes a page only once the
// page budget admits it.
func TestFulltextPageWaitsForMemory(t *testing.T) {
	eng, err := ocr.New(1)
	if err != nil {
		t.Skipf("OCR engine not available: %v", err)
	}
	t.Cleanup(eng.Close)
	doc, _ := pngDoc(t, 400, 300)
	p := params.Classify{Mode: "classify_only"}
	if !p.NoCrop() {
		t.Fatal("classify_only cuts")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	d := Deps{Log: testLog()}
	if _, err := readPage(ctx, d, eng, nil, fullBudget(t), nil, pipeline.Input{TaskID: "t"}, p, doc, 0); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("page read beside a full budget: %v", err)
	}
	if _, err := readPage(context.Background(), d, eng, nil, membudget.New(1<<30), nil, pipeline.Input{TaskID: "t"}, p, doc, 0); err != nil {
		t.Fatal(err)
	}
}

// TestRecognizeOnlyPageWaitsForMemory: recognize_only decodes a page
// only once the page budget admits it.
func TestRecognizeOnlyPageWaitsForMemory(t *testing.T) {
	ex, err := openExtractor(testModels(false), testLog(), 1)
	if err != nil {
		t.Skipf("extraction engine not available (text models or Tesseract rus): %v", err)
	}
	t.Cleanup(ex.close)
	st, err := store.NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, data := pngDoc(t, 320, 240)
	if err := st.Put(context.Background(), "in/page.png", data); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	p := params.Recognize{Mode: "recognize_only", DocTypes: []string{"other"}, DPI: 300, Quality: 75}
	req := stages.MethodRequest{Method: "recognize", TaskID: "t", InputKey: "in/page.png", Size: int64(len(data)), Params: p, MaxPages: 10, MaxPixels: 1 << 24}
	if body, err := recognize(ctx, Deps{Store: st, Log: testLog()}, ex.x, normalizers{}, fullBudget(t), req, t.TempDir()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("answered %s, %v beside a full budget", body, err)
	}
}

// TestPageBudgetOfARole: a role's budget is the one its process shares,
// else PAGE_MEMORY_BYTES, else the default.
func TestPageBudgetOfARole(t *testing.T) {
	shared := membudget.New(5 << 20)
	for _, tc := range []struct {
		name string
		d    Deps
		w    config.Worker
		want int64
	}{
		{"shared", Deps{Pages: shared}, config.Worker{PageMemory: 7 << 20}, 5 << 20},
		{"page memory", Deps{}, config.Worker{PageMemory: 7 << 20}, 7 << 20},
		{"neither", Deps{}, config.Worker{}, membudget.Default()},
	} {
		if got := pageBudget(tc.d, tc.w).Size(); got != tc.want {
			t.Errorf("%s: budget %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := SharedPageBudget(config.Worker{PageMemory: 9 << 20}).Size(); got != 9<<20 {
		t.Errorf("shared budget %d from PAGE_MEMORY_BYTES, want %d", got, 9<<20)
	}
}
