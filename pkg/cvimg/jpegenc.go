package cvimg

// #cgo LDFLAGS: -ljpeg
// #include <stdio.h>
// #include <stdlib.h>
// #include <setjmp.h>
// #include <jpeglib.h>
//
// // dsjpeg is one compression in progress; its first member lets the
// // error handler find the rest from libjpeg's common pointer.
// typedef struct {
// 	struct jpeg_compress_struct c;
// 	struct jpeg_error_mgr err;
// 	jmp_buf jmp;
// 	unsigned char *out;
// 	unsigned long size;
// 	int started;
// 	char msg[JMSG_LENGTH_MAX];
// } dsjpeg;
//
// static void dsjpeg_error_exit(j_common_ptr c) {
// 	dsjpeg *e = (dsjpeg *)c;
// 	(*c->err->format_message)(c, e->msg);
// 	longjmp(e->jmp, 1);
// }
//
// // libjpeg's warnings go to stderr by default; a compressor has none
// // worth a log line.
// static void dsjpeg_output_message(j_common_ptr c) { (void)c; }
//
// static dsjpeg *dsjpeg_new(int w, int h, int comps, int space, int quality) {
// 	dsjpeg *e = calloc(1, sizeof *e);
// 	if (e == NULL) return NULL;
// 	e->c.err = jpeg_std_error(&e->err);
// 	e->err.error_exit = dsjpeg_error_exit;
// 	e->err.output_message = dsjpeg_output_message;
// 	if (setjmp(e->jmp)) return e;
// 	jpeg_create_compress(&e->c);
// 	jpeg_mem_dest(&e->c, &e->out, &e->size);
// 	e->c.image_width = (JDIMENSION)w;
// 	e->c.image_height = (JDIMENSION)h;
// 	e->c.input_components = comps;
// 	e->c.in_color_space = (J_COLOR_SPACE)space;
// 	jpeg_set_defaults(&e->c);
// 	jpeg_set_quality(&e->c, quality, TRUE);
// 	jpeg_start_compress(&e->c, TRUE);
// 	e->started = 1;
// 	return e;
// }
//
// // dsjpeg_write compresses n rows lying stride bytes apart from rows.
// static int dsjpeg_write(dsjpeg *e, unsigned char *rows, long stride, int n) {
// 	JSAMPROW ptr[32];
// 	if (setjmp(e->jmp)) return -1;
// 	for (int i = 0; i < n;) {
// 		int k = 0;
// 		for (; k < 32 && i + k < n; k++) ptr[k] = rows + (long)(i + k) * stride;
// 		JDIMENSION done = jpeg_write_scanlines(&e->c, ptr, (JDIMENSION)k);
// 		if (done == 0) {
// 			snprintf(e->msg, sizeof e->msg, "compressor took no rows");
// 			return -1;
// 		}
// 		i += (int)done;
// 	}
// 	return 0;
// }
//
// static int dsjpeg_finish(dsjpeg *e) {
// 	if (setjmp(e->jmp)) return -1;
// 	jpeg_finish_compress(&e->c);
// 	return 0;
// }
//
// static void dsjpeg_free(dsjpeg *e) {
// 	jpeg_destroy_compress(&e->c);
// 	free(e->out);
// 	free(e);
// }
//
// static const char *dsjpeg_msg(dsjpeg *e) { return e->msg; }
// static int dsjpeg_started(dsjpeg *e) { return e->started; }
// static unsigned char *dsjpeg_out(dsjpeg *e) { return e->out; }
// static unsigned long dsjpeg_size(dsjpeg *e) { return e->size; }
import "C"

import (
	"errors"
	"fmt"
	"math"
	"unsafe"
)

// jpegMaxSide is libjpeg's largest image side (JPEG_MAX_DIMENSION).
const jpegMaxSide = 65500

// jpegSpace is how the rows handed to a jpegWriter lay out a pixel.
type jpegSpace int

// The layouts a jpegWriter takes (libjpeg-turbo's extended colour spaces:
// the encoder reads the channels where they lie, with no conversion on
// the Go side).
const (
	spaceGray jpegSpace = iota // one byte a pixel
	spaceRGBX                  // R, G, B and an ignored fourth byte
	spaceBGR                   // B, G, R: OpenCV's order
)

// components returns the bytes a pixel takes in s and libjpeg's name of s.
func (s jpegSpace) components() (int, C.int) {
	switch s {
	case spaceRGBX:
		return 4, C.JCS_EXT_RGBX
	case spaceBGR:
		return 3, C.JCS_EXT_BGR
	}
	return 1, C.JCS_GRAYSCALE
}

// jpegWriter compresses an image row by row into memory with libjpeg
// (libjpeg-turbo on Debian, the library OpenCV's own encoder calls), so
// that the caller can hand it the image a band at a time instead of
// building the whole picture first. Defaults as OpenCV's imencode: baseline,
// standard tables scaled to the quality, chroma 4:2:0.
type jpegWriter struct {
	e     *C.dsjpeg
	w, h  int
	bpp   int
	rows  int
	space jpegSpace
}

// newJPEGWriter starts a w x h image in layout s at the given quality.
// The caller must close it.
func newJPEGWriter(w, h int, s jpegSpace, quality int) (*jpegWriter, error) {
	if w <= 0 || h <= 0 || w > jpegMaxSide || h > jpegMaxSide {
		return nil, fmt.Errorf("cvimg: JPEG of %d x %d pixels: each side must be 1 to %d", w, h, jpegMaxSide)
	}
	bpp, space := s.components()
	e := C.dsjpeg_new(C.int(w), C.int(h), C.int(bpp), space, C.int(quality))
	if e == nil {
		return nil, errors.New("cvimg: JPEG: out of memory")
	}
	jw := &jpegWriter{e: e, w: w, h: h, bpp: bpp, space: s}
	if C.dsjpeg_started(e) == 0 {
		err := jw.err("start")
		jw.close()
		return nil, err
	}
	return jw, nil
}

// err describes libjpeg's last failure.
func (jw *jpegWriter) err(what string) error {
	return fmt.Errorf("cvimg: JPEG %s: %s", what, C.GoString(C.dsjpeg_msg(jw.e)))
}

// write compresses n rows of pix, stride bytes apart, each w pixels of the
// writer's layout. pix may be Go or C memory; it is read only during the
// call.
func (jw *jpegWriter) write(pix []byte, stride, n int) error {
	if n <= 0 {
		return nil
	}
	if jw.rows+n > jw.h {
		return fmt.Errorf("cvimg: JPEG: %d rows written to an image %d high", jw.rows+n, jw.h)
	}
	if stride < jw.w*jw.bpp || len(pix) < stride*(n-1)+jw.w*jw.bpp {
		return fmt.Errorf("cvimg: JPEG: %d bytes for %d rows %d apart of %d pixels", len(pix), n, stride, jw.w)
	}
	if C.dsjpeg_write(jw.e, (*C.uchar)(unsafe.Pointer(&pix[0])), C.long(stride), C.int(n)) != 0 {
		return jw.err("write")
	}
	jw.rows += n
	return nil
}

// finish completes the image and returns its bytes (a Go copy).
func (jw *jpegWriter) finish() ([]byte, error) {
	if jw.rows != jw.h {
		return nil, fmt.Errorf("cvimg: JPEG: %d of %d rows written", jw.rows, jw.h)
	}
	if C.dsjpeg_finish(jw.e) != 0 {
		return nil, jw.err("finish")
	}
	n := uint64(C.dsjpeg_size(jw.e))
	if n > math.MaxInt32 {
		return nil, fmt.Errorf("cvimg: JPEG of %d bytes", n)
	}
	return C.GoBytes(unsafe.Pointer(C.dsjpeg_out(jw.e)), C.int(n)), nil
}

// close releases the compressor and its output buffer.
func (jw *jpegWriter) close() {
	if jw.e != nil {
		C.dsjpeg_free(jw.e)
		jw.e = nil
	}
}
