package main

import (
	"fmt"
	"runtime"

	"docsuite/pkg/cpucheck"
)

// machine names the processor the times of a report were measured on:
// the machines this project is measured on differ by about two times
// (a Xeon with AVX-512, an EPYC without it), more than most changes.
func machine() string {
	f := cpucheck.Host()
	avx := "AVX-512"
	if _, err := cpucheck.Check(f, false); err != nil {
		avx = "no AVX-512"
	}
	return fmt.Sprintf("%s, %d cores, %s", f.Brand, runtime.NumCPU(), avx)
}
