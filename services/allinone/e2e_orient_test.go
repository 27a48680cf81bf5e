package main

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	"image/jpeg"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"docsuite/pkg/testutil"
)

// TestOrientStageOnlyWhenItHasWork: the classify stage finds a crop's
// orientation, so the orient stage is asked only for the upright crop
// (return_crops=true); with return_crops=false the crop, which may be a
// whole page, is not read and decoded a second time. Both answers name
// the same type, rotation and corners, and the returned crop is upright.
func TestOrientStageOnlyWhenItHasWork(t *testing.T) {
	internal := fmt.Sprintf("127.0.0.1:%d", testutil.FreePort(t))
	in := startAllInOne(t, map[string]string{"METRICS_ADDR": internal})
	up, _ := factoryScan(t, "snils_front", 0)
	turned := quarterTurn(up)
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, turned, &jpeg.Options{Quality: 92}); err != nil {
		t.Fatal(err)
	}
	file := buf.Bytes()

	before := orientCalls(t, internal)
	code, without := in.post(t, "/pipelines/run/classify?return_crops=false", "image", file)
	if code != http.StatusOK {
		t.Fatalf("return_crops=false: %d %v", code, without)
	}
	if n := orientCalls(t, internal) - before; n != 0 {
		t.Errorf("return_crops=false asked the orient stage %d times, want 0", n)
	}
	before = orientCalls(t, internal)
	code, with := in.post(t, "/pipelines/run/classify?return_crops=true", "image", file)
	if code != http.StatusOK {
		t.Fatalf("return_crops=true: %d %v", code, with)
	}
	items, _ := with["items"].([]any)
	if n := orientCalls(t, internal) - before; n != len(items) || n == 0 {
		t.Errorf("return_crops=true asked the orient stage %d times for %d items", n, len(items))
	}
	docs := func(body map[string]any) []any {
		var out []any
		for _, it := range body["items"].([]any) {
			out = append(out, it.(map[string]any)["document"])
		}
		return out
	}
	if a, b := docs(without), docs(with); !reflect.DeepEqual(a, b) {
		t.Fatalf("documents differ:\nreturn_crops=false %v\nreturn_crops=true  %v", a, b)
	}
	doc := items[0].(map[string]any)["document"].(map[string]any)
	if doc["type"] != "snils_front" || doc["rotation"] == 0.0 {
		t.Fatalf("a SNILS card lying a quarter turn off answered %v rotation %v", doc["type"], doc["rotation"])
	}
	uri, _ := items[0].(map[string]any)["crop"].(string)
	if b := decodeCrop(t, uri).Bounds(); b.Dx() <= b.Dy() {
		t.Errorf("returned crop %dx%d: the upright card is landscape", b.Dx(), b.Dy())
	}
}

// quarterTurn turns img a quarter turn clockwise.
func quarterTurn(img image.Image) *image.RGBA {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dy(), b.Dx()))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(b.Max.Y-1-y, x-b.Min.X, img.At(x, y))
		}
	}
	return out
}

// orientCalls is the number of orient requests the all-in-one's workers
// have handled, from its /metrics.
func orientCalls(t *testing.T, internal string) int {
	t.Helper()
	resp, err := http.Get("http://" + internal + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	const prefix = `docsuite_stage_handle_seconds_count{stage="orient"} `
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), prefix); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("metrics line %q: %v", sc.Text(), err)
			}
			return n
		}
	}
	return 0
}
