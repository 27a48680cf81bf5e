package cropsvc

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/jpeg"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"docsuite/pkg/crop"
	"docsuite/pkg/decode"
	"docsuite/pkg/membudget"
	"docsuite/pkg/stages"
	"docsuite/pkg/store"
	"docsuite/pkg/testutil"
)

// blockingFinder finds nothing, once let go: it holds each request inside
// the cropper's admitted work and counts how many are there at once.
type blockingFinder struct {
	entered chan struct{}
	release chan struct{}
	active  atomic.Int32
	most    atomic.Int32
}

func (f *blockingFinder) Find(ctx context.Context, _ image.Image) ([]crop.Found, error) {
	n := f.active.Add(1)
	defer f.active.Add(-1)
	for m := f.most.Load(); n > m && !f.most.CompareAndSwap(m, n); m = f.most.Load() {
	}
	f.entered <- struct{}{}
	select {
	case <-f.release:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestPagesAdmittedByMemory checks the cropper's memory budget: under a
// budget smaller than one page, a second page is not decoded while the
// first is worked on (it waits, logging so, and is cut after), the first
// still being cut alone although it is larger than the whole budget; a
// waiting request whose context ends leaves at once; under a budget that
// fits both, two pages are worked on at once.
func TestPagesAdmittedByMemory(t *testing.T) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, 64, 48)), nil); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	setup := func(t *testing.T, memory int64) (*Service, *blockingFinder, *testutil.LogCounter) {
		st, err := store.NewFolder(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"in/a.jpg", "in/b.jpg", "in/c.jpg"} {
			if err := st.Put(ctx, k, buf.Bytes()); err != nil {
				t.Fatal(err)
			}
		}
		f := &blockingFinder{entered: make(chan struct{}, 3), release: make(chan struct{})}
		h := &testutil.LogCounter{Substring: "waits for memory"}
		svc := New(st, t.TempDir(), slog.New(h), func(context.Context) (Finder, error) { return f, nil }, membudget.New(memory))
		t.Cleanup(svc.Close)
		return svc, f, h
	}
	crop := func(svc *Service, ctx context.Context, key string, errs chan<- error) {
		_, err := svc.Crop(ctx, stages.CropRequest{TaskID: "t", InputKey: key})
		errs <- err
	}

	t.Run("one page at a time under a small budget", func(t *testing.T) {
		svc, f, h := setup(t, 1)
		errs := make(chan error, 3)
		go crop(svc, ctx, "in/a.jpg", errs)
		<-f.entered
		go crop(svc, ctx, "in/b.jpg", errs)
		waitFor(t, "the second page to wait", func() bool { return h.Count() == 1 })
		cctx, cancel := context.WithCancel(ctx)
		go crop(svc, cctx, "in/c.jpg", errs)
		waitFor(t, "the third page to wait", func() bool { return h.Count() == 2 })
		cancel()
		select {
		case err := <-errs:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled waiter: got %v, want context.Canceled", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the cancelled request still waits")
		}
		close(f.release)
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if m := f.most.Load(); m != 1 {
			t.Errorf("%d pages worked on at once, want 1", m)
		}
	})

	t.Run("side by side when both fit", func(t *testing.T) {
		svc, f, h := setup(t, 1<<30)
		errs := make(chan error, 2)
		go crop(svc, ctx, "in/a.jpg", errs)
		go crop(svc, ctx, "in/b.jpg", errs)
		<-f.entered
		<-f.entered
		close(f.release)
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if m, n := f.most.Load(), h.Count(); m != 2 || n != 0 {
			t.Errorf("%d pages at once, %d waits; want 2 and 0", m, n)
		}
	})
}

// TestSingleImageNotKept checks that a single image is not kept decoded in
// the cropper's document cache after its request, outside the budget.
func TestSingleImageNotKept(t *testing.T) {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, image.NewGray(image.Rect(0, 0, 64, 48)), nil); err != nil {
		t.Fatal(err)
	}
	st, err := store.NewFolder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.Put(ctx, "in/a.jpg", buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	svc := New(st, t.TempDir(), slog.New(slog.DiscardHandler), nil, nil)
	defer svc.Close()
	if _, err := svc.Crop(ctx, stages.CropRequest{TaskID: "t", InputKey: "in/a.jpg", WholePage: true}); err != nil {
		t.Fatal(err)
	}
	svc.docs.mu.Lock()
	defer svc.docs.mu.Unlock()
	if n := len(svc.docs.byKey); n != 0 {
		t.Errorf("%d documents cached after the request, want 0", n)
	}
}

// waitFor polls cond for up to five seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// jpegHeader is the start of a 10,000 × 10,000 JPEG up to its frame
// header (after its JFIF segment): marker sof, the components' sampling factors, and an EXIF
// orientation when exif is above 0. Opening a file reads no further.
func jpegHeader(sof byte, sampling []byte, exif uint16) []byte {
	b := []byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 'J', 'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0}
	if exif > 0 {
		var t []byte
		t = append(t, "Exif\x00\x00MM\x00\x2A\x00\x00\x00\x08\x00\x01"...)
		t = binary.BigEndian.AppendUint16(t, 0x0112)
		t = binary.BigEndian.AppendUint16(t, 3)
		t = binary.BigEndian.AppendUint32(t, 1)
		t = binary.BigEndian.AppendUint16(t, exif)
		t = append(t, 0, 0, 0, 0, 0, 0)
		b = append(b, 0xFF, 0xE1)
		b = binary.BigEndian.AppendUint16(b, uint16(len(t)+2))
		b = append(b, t...)
	}
	seg := []byte{8, 0x27, 0x10, 0x27, 0x10, byte(len(sampling))}
	for i, s := range sampling {
		seg = append(seg, byte(i+1), s, 0)
	}
	b = append(b, 0xFF, sof)
	b = binary.BigEndian.AppendUint16(b, uint16(len(seg)+2))
	return append(b, seg...)
}

// pngHeader is the signature and header of a 10,000 × 10,000 PNG, and
// the palette of a palette image.
func pngHeader(depth, colour byte) []byte {
	b := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	b = binary.BigEndian.AppendUint32(b, 10000)
	b = binary.BigEndian.AppendUint32(b, 10000)
	b = append(b, depth, colour, 0, 0, 0)
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[12:]))
	if colour == 3 { // a palette of two colours
		b = append(b, 0, 0, 0, 6)
		at := len(b)
		b = append(b, "PLTE\xec\xe4\xd6\x0a\x14\x1e"...)
		b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[at:]))
		b = append(b, "\x00\x00\x00\x00IDAT"...) // where the header reader stops
	}
	return b
}

// TestEstimateCoversMeasuredPeaks checks the cropper's estimate of a
// 100-megapixel page against the peak RSS measured (less the idle
// process's) of the cropper working on one such page of each kind:
// 10,000 × 10,000 flat pages made with PIL, one request on a fresh
// cropper (GOMEMLIMIT 3 GiB), 2026-12-07; the pages whose peaks fell when
// cvimg.Turn came to write in bands and the decoder's leftovers to be
// returned to the system (imageDoc.collect) measured again that day, the
// others as they were (some a little lower since).
func TestEstimateCoversMeasuredPeaks(t *testing.T) {
	const mb = 1_000_000
	tests := []struct {
		name     string
		header   []byte
		measured int64
	}{
		{"baseline JPEG 4:2:0", jpegHeader(0xC0, []byte{0x22, 0x11, 0x11}, 0), 255 * mb},
		{"baseline JPEG 4:4:4", jpegHeader(0xC0, []byte{0x11, 0x11, 0x11}, 0), 407 * mb},
		{"progressive JPEG 4:2:0", jpegHeader(0xC2, []byte{0x22, 0x11, 0x11}, 0), 855 * mb},
		{"progressive JPEG 4:4:4", jpegHeader(0xC2, []byte{0x11, 0x11, 0x11}, 0), 1469 * mb},
		{"progressive JPEG grey", jpegHeader(0xC2, []byte{0x11}, 0), 811 * mb},
		{"progressive JPEG CMYK", jpegHeader(0xC2, []byte{0x11, 0x11, 0x11, 0x11}, 0), 2349 * mb},
		{"progressive JPEG 4:4:4, EXIF 6", jpegHeader(0xC2, []byte{0x11, 0x11, 0x11}, 6), 1469 * mb},
		{"baseline JPEG 4:2:0, EXIF 6", jpegHeader(0xC0, []byte{0x22, 0x11, 0x11}, 6), 915 * mb},
		{"PNG RGBA 16-bit", pngHeader(16, 6), 1174 * mb},
		{"PNG RGB 16-bit", pngHeader(16, 2), 1174 * mb},
		{"PNG grey 16-bit", pngHeader(16, 0), 393 * mb},
		{"PNG RGBA 8-bit", pngHeader(8, 6), 711 * mb},
		{"PNG palette", pngHeader(8, 3), 686 * mb},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := decode.Open(ctx, tc.header, decode.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer doc.Close()
			c, err := decode.PageCost(ctx, doc, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := estimate(c); got < tc.measured {
				t.Errorf("estimate %d MB, measured %d MB", got/mb, tc.measured/mb)
			}
		})
	}
}
