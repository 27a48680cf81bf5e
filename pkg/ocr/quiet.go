package ocr

// #cgo LDFLAGS: -llept
// #include <leptonica/allheaders.h>
import "C"

// silenceLeptonica stops Leptonica, the image library under Tesseract,
// printing its error messages to the process's stderr ("Error in
// pixScaleAreaMap: pixd too small", several for a page with a speck too
// small to scale): they broke into the workers' structured log lines and
// say nothing an operator can act on; Tesseract goes on without the
// speck. The setting is the library's, for the whole process, and setting
// it again is harmless.
func silenceLeptonica() {
	C.setMsgSeverity(C.L_SEVERITY_NONE)
}
