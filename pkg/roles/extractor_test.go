package roles

import (
	"bufio"
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"strings"
	"testing"

	"docsuite/pkg/config"
	"docsuite/pkg/onnxrt"
)

// TestOpenExtractorFollowsModels opens the extraction engine (the ocr
// role's recognize and the fraud worker's zone check) with the roles'
// model settings and reads in its log that every text model runs with the
// configured thread count and names its execution provider, and that
// ALLOW_GPU asks for CUDA: the provider is CUDA, or the log says CUDA is
// unavailable and the CPU runs the model, as the classifier does.
func TestOpenExtractorFollowsModels(t *testing.T) {
	lib := os.Getenv("ONNXRUNTIME_LIB")
	if lib == "" {
		lib = onnxrt.DefaultLibrary
	}
	// One Runtime held over the cases keeps the process's ONNX Runtime
	// environment alive between them.
	hold, err := onnxrt.Open(onnxrt.Options{Library: lib})
	if err != nil {
		t.Skipf("ONNX Runtime not available: %v", err)
	}
	defer hold.Close()
	cases := []struct {
		name    string
		m       config.Models
		threads int
	}{
		{"defaults", config.Models{ONNXRuntime: lib}, 1},
		{"two threads", config.Models{ONNXRuntime: lib, Threads: 2}, 2},
		{"ALLOW_GPU", config.Models{ONNXRuntime: lib, Threads: 1, AllowGPU: true}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			log := slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
			ex, err := openExtractor(c.m, log, 1)
			if err != nil {
				t.Skipf("extraction engine not available (text models or Tesseract rus): %v", err)
			}
			ex.close()
			loaded, fellBack := map[string]string{}, map[string]bool{}
			sc := bufio.NewScanner(&buf)
			for sc.Scan() {
				var rec struct {
					Msg      string `json:"msg"`
					File     string `json:"file"`
					Model    string `json:"model"`
					Provider string `json:"provider"`
					Threads  int    `json:"threads"`
				}
				if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
					t.Fatalf("log line %q: %v", sc.Text(), err)
				}
				switch {
				case rec.Msg == "model loaded":
					if rec.Threads != c.threads {
						t.Errorf("%s runs with %d threads, configured %d", rec.File, rec.Threads, c.threads)
					}
					loaded[rec.File] = rec.Provider
				case strings.HasPrefix(rec.Msg, "ALLOW_GPU: CUDA execution provider unavailable"):
					fellBack[rec.Model] = true
				}
			}
			if len(loaded) != 3 {
				t.Fatalf("%d text models logged as loaded, want 3 (detection, recognition, direction): %v", len(loaded), loaded)
			}
			for file, provider := range loaded {
				switch {
				case !c.m.AllowGPU && provider != "CPU":
					t.Errorf("%s runs on %q without ALLOW_GPU", file, provider)
				case c.m.AllowGPU && provider != "CUDA" && !fellBack[file]:
					t.Errorf("%s runs on %q with ALLOW_GPU and no word of CUDA being unavailable", file, provider)
				}
			}
		})
	}
}
