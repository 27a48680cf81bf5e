package ocr

// #cgo LDFLAGS: -ltesseract
// #include <stdlib.h>
// #include <tesseract/capi.h>
import "C"

import (
	"errors"
	"fmt"
	"image"
	"os"
	"unsafe"

	"docsuite/pkg/cvimg"
)

// osdMaxSide is the longer side pages are shrunk to before their
// orientation is detected: the script's letter shapes are still legible
// to the detector at that size on an A4 scan, and the detection costs a
// fraction of a large page's.
const osdMaxSide = 2000

// errNoOrientation reports a page on which Tesseract's detector found too
// little text to tell which way up it stands.
var errNoOrientation = errors.New("ocr: orientation not detected")

// osd detects which way up a page's text stands with Tesseract's
// orientation and script detection (the osd language data, Debian's
// tesseract-ocr-osd). gosseract does not expose it, hence the C API. An
// osd is used by one goroutine at a time.
type osd struct {
	api *C.TessBaseAPI
}

// newOSD loads the orientation detector.
func newOSD() (*osd, error) {
	api := C.TessBaseAPICreate()
	lang := C.CString("osd")
	defer C.free(unsafe.Pointer(lang))
	if C.TessBaseAPIInit3(api, nil, lang) != 0 {
		C.TessBaseAPIDelete(api)
		return nil, fmt.Errorf("ocr: load the orientation detector (language data osd): Tesseract's Init failed")
	}
	name, value := C.CString("debug_file"), C.CString(os.DevNull)
	defer C.free(unsafe.Pointer(name))
	defer C.free(unsafe.Pointer(value))
	C.TessBaseAPISetVariable(api, name, value)
	C.TessBaseAPISetPageSegMode(api, C.PSM_OSD_ONLY)
	return &osd{api: api}, nil
}

// close releases the detector.
func (o *osd) close() {
	C.TessBaseAPIEnd(o.api)
	C.TessBaseAPIDelete(o.api)
}

// detect returns the quarter turns clockwise that make img's text stand
// upright (0 to 3), or errNoOrientation.
func (o *osd) detect(img image.Image) (int, error) {
	m, _, err := cvimg.GrayScaled(img, osdMaxSide)
	if err != nil {
		return 0, fmt.Errorf("ocr: orientation: %w", err)
	}
	defer m.Close()
	w, h := m.Cols(), m.Rows()
	pix := m.ToBytes()
	if len(pix) < w*h {
		return 0, fmt.Errorf("ocr: orientation: %d bytes for a %dx%d page", len(pix), w, h)
	}
	C.TessBaseAPISetImage(o.api, (*C.uchar)(unsafe.Pointer(&pix[0])), C.int(w), C.int(h), 1, C.int(w))
	defer C.TessBaseAPIClear(o.api)
	var deg C.int
	var conf, scriptConf C.float
	var script *C.char
	if C.TessBaseAPIDetectOrientationScript(o.api, &deg, &conf, &script, &scriptConf) == 0 {
		return 0, errNoOrientation
	}
	// Tesseract reports the page's clockwise rotation in degrees: the
	// text is made upright by turning it as far back.
	k := (4 - int(deg)/90%4) % 4
	return k, nil
}
