// Package cpucheck is the AVX-512 gate of the model-running roles: the
// reference service does not work without AVX-512, and neither do we claim
// to; a documented override exists for development machines only.
package cpucheck

import (
	"errors"
	"fmt"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// Features is the part of the CPU's feature set the gate looks at.
type Features struct {
	Brand string
	// Family and Model are the processor's CPUID family and model (0 when
	// unknown): two machines of one brand string, a virtual machine's
	// "AMD EPYC" say, may be generations apart.
	Family, Model int
	AVX512F       bool
	AVX512B       bool // AVX512BW
	AVX512D       bool // AVX512DQ
	AVX512V       bool // AVX512VL
}

// Host reads the running CPU's features.
func Host() Features {
	c := cpuid.CPU
	return Features{
		Brand:   c.BrandName,
		Family:  c.Family,
		Model:   c.Model,
		AVX512F: c.Supports(cpuid.AVX512F),
		AVX512B: c.Supports(cpuid.AVX512BW),
		AVX512D: c.Supports(cpuid.AVX512DQ),
		AVX512V: c.Supports(cpuid.AVX512VL),
	}
}

// ErrNoAVX512 is returned when the CPU lacks AVX-512.
var ErrNoAVX512 = errors.New("cpucheck: the processor does not support AVX-512")

// Check refuses a CPU without AVX-512 F/BW/DQ/VL unless allowOverride
// (DEV_ALLOW_NO_AVX512=true) is set; then it returns a warning to log.
func Check(f Features, allowOverride bool) (warning string, err error) {
	var missing []string
	for _, x := range []struct {
		name string
		ok   bool
	}{{"AVX512F", f.AVX512F}, {"AVX512BW", f.AVX512B}, {"AVX512DQ", f.AVX512D}, {"AVX512VL", f.AVX512V}} {
		if !x.ok {
			missing = append(missing, x.name)
		}
	}
	if len(missing) == 0 {
		return "", nil
	}
	msg := fmt.Sprintf("CPU %q lacks %s", f.Brand, strings.Join(missing, ", "))
	if allowOverride {
		return msg + ": starting anyway because DEV_ALLOW_NO_AVX512=true (development only, unsupported in production)", nil
	}
	return "", fmt.Errorf("%w: %s; the service requires AVX-512 (set DEV_ALLOW_NO_AVX512=true on development machines only)", ErrNoAVX512, msg)
}

// Describe names the processor for the time figures of a report: its
// brand, its CPUID family and model where known, the cores visible
// (cores) and whether it has AVX-512. The machines this project is
// measured on differ by up to two times (a Xeon with AVX-512, an EPYC
// without it; two "AMD EPYC" machines by a third), more than most changes
// do.
func (f Features) Describe(cores int) string {
	avx := "AVX-512"
	if _, err := Check(f, false); err != nil {
		avx = "no AVX-512"
	}
	brand := f.Brand
	if f.Family > 0 {
		brand = fmt.Sprintf("%s (family %d, model %d)", f.Brand, f.Family, f.Model)
	}
	return fmt.Sprintf("%s, %d cores, %s", brand, cores, avx)
}
