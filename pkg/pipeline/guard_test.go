package pipeline

import (
	"context"
	"strings"
	"testing"
	"time"

	"docsuite/pkg/apierr"
	"docsuite/pkg/stages"
)

// TestRunPagesPanicFailsTheRequest: a panic while a page is cut or a
// document handled (on the pipeline's own goroutines) fails that request
// with an internal error (errno 19) naming the panic, instead of taking
// the gateway and every request it runs down.
func TestRunPagesPanicFailsTheRequest(t *testing.T) {
	docs := []int{1, 2, 1}
	crop := cropOf(docs)
	tests := []struct {
		name      string
		panicCrop int // page whose crop panics (0: none; page 0 is cut before the goroutines)
		panicDoc  int // page whose documents panic (-1: none)
	}{
		{"a document's handling panics", 0, 1},
		{"a later page's cut panics", 2, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := pageWork{
				crop: func(ctx context.Context, page int) (stages.CropReply, error) {
					if tc.panicCrop > 0 && page == tc.panicCrop {
						panic("crop reply without pages")
					}
					return crop(ctx, page)
				},
				doc: func(ctx context.Context, page, idx int, d stages.Found) error {
					if page == tc.panicDoc {
						var found []stages.Found
						_ = found[idx] // index out of range
					}
					return nil
				},
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, err := runPages(ctx, w, 2, 2, nil)
			if err == nil {
				t.Fatal("a panic was not reported")
			}
			if e := apierr.As(err); e.Code != apierr.Internal || !strings.Contains(err.Error(), "panic") {
				t.Errorf("error %v (code %v), want internal naming the panic", err, e.Code)
			}
		})
	}
}
