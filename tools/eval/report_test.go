package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestReportIntervals checks the report's interval column: a share's
// Wilson interval, and the calibration's resampled interval around its
// figure.
func TestReportIntervals(t *testing.T) {
	r := &results{Files: 124, Pages: 124, Truth: 124, Found: 124}
	for i := range 124 {
		p := pair{File: fmt.Sprintf("%03d.jpg", i), Truth: "snils_front", Pred: "snils_front", Conf: 0.9, IoU: -1}
		if i >= 97 {
			p.Pred = "other"
		}
		r.Pairs = append(r.Pairs, p)
	}
	md, err := r.markdown("test", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := "| type top-1 | 78.2 % (97/124) | 70.2 to 84.6 % |"; !strings.Contains(md, want) {
		t.Errorf("no %q in\n%s", want, md)
	}
	if !strings.Contains(md, intervalNote) {
		t.Error("the report does not say how its intervals are made")
	}
	// ECE here is |0.9 - 97/124| = 0.1177; its interval must hold it and
	// have some width.
	m := regexp.MustCompile(`\| expected calibration error \(10 bins\) \| ([0-9.]+) \| ([0-9.]+) to ([0-9.]+) \|`).FindStringSubmatch(md)
	if m == nil {
		t.Fatalf("no ECE row with an interval in\n%s", md)
	}
	v, _ := strconv.ParseFloat(m[1], 64)
	lo, _ := strconv.ParseFloat(m[2], 64)
	hi, _ := strconv.ParseFloat(m[3], 64)
	if v < lo || v > hi || hi-lo < 0.02 {
		t.Errorf("ECE %.4f with interval [%.4f, %.4f]", v, lo, hi)
	}
}
