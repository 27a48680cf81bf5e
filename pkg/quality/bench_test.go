package quality

import "testing"

// BenchmarkMeasure scores a drawn 1200 × 800 grey page with a bright spot,
// the size of a phone photo's document crop.
func BenchmarkMeasure(b *testing.B) {
	img := page(1200, 800, 200, disc(1200, 800, 0.5, 0.5, 0.2, 0.2))
	for b.Loop() {
		Measure(img)
	}
}
