package onnxrt

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNothingReportedHome runs a model in a process of its own, with no
// ORT_DISABLE_TELEMETRY in its environment and a home folder of its own:
// ONNX Runtime's Linux builds (1.30) report usage to Microsoft, and write
// a device identifier and an event cache under ~/.cache/Microsoft and a
// log in /tmp to do it. The suite runs in closed networks: none of these
// may appear.
func TestNothingReportedHome(t *testing.T) {
	if os.Getenv("ONNXRT_TELEMETRY_HELPER") == "1" {
		s, rt, err := OpenModel(Options{}, "models", "docnet")
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		spec := s.Spec()
		in := make([]float32, 3*spec.Input.Height*spec.Input.Width)
		if _, err := s.Run(context.Background(), in, 1); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		_ = s.Close()
		_ = rt.Close()
		os.Exit(0)
	}
	lib, err := FindLibrary("")
	if err != nil {
		t.Skip(err)
	}
	models, err := FindDir("models")
	if err != nil {
		t.Skip(err)
	}
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ORT_DISABLE_TELEMETRY=") && !strings.HasPrefix(kv, "HOME=") &&
			!strings.HasPrefix(kv, "XDG_CACHE_HOME=") && !strings.HasPrefix(kv, LibraryEnv+"=") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNothingReportedHome$")
	cmd.Dir = filepath.Dir(models)
	cmd.Env = append(env, "ONNXRT_TELEMETRY_HELPER=1", "HOME="+home, LibraryEnv+"="+lib)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	var written []string
	_ = filepath.Walk(home, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			written = append(written, p)
		}
		return nil
	})
	if len(written) > 0 {
		t.Errorf("ONNX Runtime wrote under the home folder: %v", written)
	}
	matLog := filepath.Join(os.TempDir(), "mat-debug-"+strconv.Itoa(cmd.Process.Pid)+".log")
	if _, err := os.Stat(matLog); err == nil {
		_ = os.Remove(matLog)
		t.Errorf("ONNX Runtime's telemetry wrote %s", matLog)
	}
}
