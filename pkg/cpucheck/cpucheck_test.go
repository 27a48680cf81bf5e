package cpucheck

import (
	"errors"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	full := Features{Brand: "Xeon", AVX512F: true, AVX512B: true, AVX512D: true, AVX512V: true}
	partial := Features{Brand: "Old", AVX512F: true}
	none := Features{Brand: "Laptop"}
	tests := []struct {
		name     string
		f        Features
		override bool
		wantErr  bool
		wantWarn bool
	}{
		{"full AVX-512", full, false, false, false},
		{"no AVX-512 refused", none, false, true, false},
		{"partial AVX-512 refused", partial, false, true, false},
		{"override starts with a warning", none, true, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			warn, err := Check(tc.f, tc.override)
			if (err != nil) != tc.wantErr || (warn != "") != tc.wantWarn {
				t.Fatalf("warn=%q err=%v", warn, err)
			}
			if err != nil && (!errors.Is(err, ErrNoAVX512) || !strings.Contains(err.Error(), "DEV_ALLOW_NO_AVX512")) {
				t.Errorf("error must say why and how to override: %v", err)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		f     Features
		cores int
		want  string
	}{
		{Features{Brand: "Intel Xeon", AVX512F: true, AVX512B: true, AVX512D: true, AVX512V: true}, 2, "Intel Xeon, 2 cores, AVX-512"},
		{Features{Brand: "AMD EPYC", AVX512F: true}, 2, "AMD EPYC, 2 cores, no AVX-512"},
		{Features{Brand: "Laptop"}, 8, "Laptop, 8 cores, no AVX-512"},
		{Features{Brand: "AMD EPYC", Family: 25, Model: 17, AVX512F: true, AVX512B: true, AVX512D: true, AVX512V: true}, 2, "AMD EPYC (family 25, model 17), 2 cores, AVX-512"},
	} {
		if got := tc.f.Describe(tc.cores); got != tc.want {
			t.Errorf("Describe = %q, want %q", got, tc.want)
		}
	}
}
