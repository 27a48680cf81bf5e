package roles

import (
	"context"
	"image"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"docsuite/pkg/classify"
	"docsuite/pkg/config"
	"docsuite/pkg/decode"
)

// realdata is the shared folder of real photos and scans beside the
// repository; tests that read it skip when it is absent.
var realdata = filepath.Join("..", "..", "..", "shared", "realdata")

// skipWithoutRealdata skips a test or benchmark when the shared folder of
// real files is absent.
func skipWithoutRealdata(tb testing.TB) {
	tb.Helper()
	if _, err := os.Stat(filepath.Join(realdata, "manifest.csv")); err != nil {
		tb.Skipf("realdata not available: %v", err)
	}
}

// testModels is the models configuration the role tests load: the
// repository's models, ONNX Runtime from ONNXRUNTIME_LIB or where make
// deps installs it, one thread.
func testModels(printedWords bool) config.Models {
	m := config.Models{Dir: "models", ONNXRuntime: os.Getenv("ONNXRUNTIME_LIB"), Threads: 1, PrintedWords: printedWords}
	if m.ONNXRuntime == "" {
		m.ONNXRuntime = ".cache/onnxruntime/libonnxruntime.so.1"
	}
	return m
}

func testLog() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// openTestZoneReader opens the classifier's zone reader, closed when the
// test ends; the test skips when its models are not installed.
func openTestZoneReader(tb testing.TB, m config.Models) *zoneReader {
	tb.Helper()
	zr, err := openZoneReader(m, testLog(), false, nil, 1)
	if err != nil {
		tb.Skipf("zone reader models not available: %v", err)
	}
	tb.Cleanup(func() { _ = zr.Close() })
	return zr
}

// openTestClassifier opens the classifier, closed when the test ends; the
// test skips when its model is not installed.
func openTestClassifier(tb testing.TB, m config.Models) *classify.Classifier {
	tb.Helper()
	cl, err := classify.Open(classify.Options{Dir: m.Dir, Library: m.ONNXRuntime, Threads: 1, Log: testLog()})
	if err != nil {
		tb.Skipf("classifier model not available: %v", err)
	}
	tb.Cleanup(func() { _ = cl.Close() })
	return cl
}

// realPage decodes the first page of a file of the shared real folder.
func realPage(t *testing.T, file string) image.Image {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realdata, file))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := decode.Open(context.Background(), data, decode.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer doc.Close()
	img, err := doc.Page(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return img
}
