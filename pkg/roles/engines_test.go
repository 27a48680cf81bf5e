package roles

import "testing"

// TestZoneReaderEnginesPerCrop checks that the classifier's zone reader
// holds a Tesseract engine for each crop it reads at once: with one
// engine (MODEL_THREADS, 1 by default, sized it until 2026-12-02) the
// worker's two concurrent crops waited for each other's printed words, a
// third of the classify stage's CPU, and the all-in-one used 1.7 of its
// 2 cores.
func TestZoneReaderEnginesPerCrop(t *testing.T) {
	m := testModels(true)
	for _, engines := range []int{1, 3} {
		zr, err := openZoneReader(m, testLog(), false, nil, engines)
		if err != nil {
			t.Skipf("zone reader models not available: %v", err)
		}
		if zr.tess == nil {
			_ = zr.Close()
			t.Skip("Tesseract not installed")
		}
		if got := zr.tess.Size(); got != engines {
			t.Errorf("engines %d: printed words read by %d Tesseract engines at once", engines, got)
		}
		if zr.jpn != nil && zr.jpn.Size() != engines {
			t.Errorf("engines %d: Japanese words read by %d engines at once", engines, zr.jpn.Size())
		}
		_ = zr.Close()
	}
}
