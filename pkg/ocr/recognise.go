package ocr

// #cgo CXXFLAGS: -std=c++17
// #cgo LDFLAGS: -llept -ltesseract
// #include <stdlib.h>
// #include "recognise.h"
import "C"

import (
	"context"
	"errors"
	"fmt"
	"image"
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/otiai10/gosseract/v2"
)

// errNoHandle reports a gosseract client whose Tesseract engine cannot be
// reached (a gosseract release that keeps it otherwise).
var errNoHandle = errors.New("ocr: gosseract's Tesseract engine not reachable")

// recognise reads data (an image Leptonica decodes: pnm's) with c's
// Tesseract engine in page segmentation mode psm, as c's
// GetBoundingBoxesVerbose reads it, but stops between words when ctx
// ends and returns its error: Tesseract reading a large or grainy page
// runs for minutes, and gosseract's reading cannot be stopped, so a page
// whose request had timed out kept a core busy long after the answer.
// The client must have been initialised (newClient does it).
func recognise(ctx context.Context, c *gosseract.Client, data []byte, psm gosseract.PageSegMode) ([]gosseract.BoundingBox, error) {
	api, err := tesseractOf(c)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, errors.New("ocr: recognise: no image")
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The flag Tesseract's monitor reads lives in C memory: Go memory
	// must not be kept by C beyond the call, and this is written while
	// the call runs.
	stop := (*C.int)(C.calloc(1, C.size_t(unsafe.Sizeof(C.int(0)))))
	defer C.free(unsafe.Pointer(stop))
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-ctx.Done():
			atomic.StoreInt32((*int32)(unsafe.Pointer(stop)), 1)
		case <-done:
		}
	}()
	var out C.docsuite_words
	rc := C.docsuite_recognise(api, (*C.uchar)(unsafe.Pointer(&data[0])), C.int(len(data)), C.int(psm), stop, &out)
	close(done)
	<-watched // the flag is freed only when nothing writes it
	defer C.docsuite_free_words(&out)
	switch rc {
	case 0:
	case 1:
		return nil, fmt.Errorf("ocr: reading stopped: %w", context.Cause(ctx))
	case -1:
		return nil, errors.New("ocr: recognise: the image cannot be decoded")
	default:
		return nil, errors.New("ocr: recognise: Tesseract failed")
	}
	words := unsafe.Slice(out.words, int(out.length))
	boxes := make([]gosseract.BoundingBox, 0, len(words))
	for _, w := range words {
		boxes = append(boxes, gosseract.BoundingBox{
			Box:        image.Rect(int(w.x1), int(w.y1), int(w.x2), int(w.y2)),
			Word:       C.GoString(w.text),
			Confidence: float64(w.confidence),
			BlockNum:   int(w.block),
			ParNum:     int(w.par),
			LineNum:    int(w.line),
			WordNum:    int(w.word),
		})
	}
	return boxes, nil
}

// tesseractOf is the Tesseract engine (tesseract::TessBaseAPI) behind a
// gosseract client, which gosseract keeps in an unexported field: its
// readings take no monitor, so recognise drives the same engine, with the
// languages and settings the client gave it, itself.
func tesseractOf(c *gosseract.Client) (unsafe.Pointer, error) {
	if c == nil {
		return nil, errNoHandle
	}
	f := reflect.ValueOf(c).Elem().FieldByName("api")
	if !f.IsValid() || f.Kind() != reflect.UnsafePointer {
		return nil, errNoHandle
	}
	api := *(*unsafe.Pointer)(unsafe.Pointer(f.UnsafeAddr()))
	if api == nil {
		return nil, errNoHandle
	}
	return api, nil
}
