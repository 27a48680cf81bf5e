package crop

import (
	"context"
	"image"
	"testing"
)

// page2MP is a factory scene of about 2 megapixels (1632 px long side).
func page2MP(b *testing.B) image.Image {
	b.Helper()
	_, pages := heldOutScenes(b, 1, 1632)
	page := pages[0]
	bb := page.Bounds()
	b.Logf("page %dx%d (%.2f MP)", bb.Dx(), bb.Dy(), float64(bb.Dx()*bb.Dy())/1e6)
	return page
}

// BenchmarkNeural2MP times the neural cropper on a 2 MP page (target:
// 60 ms on one core; run with -cpu 1).
func BenchmarkNeural2MP(b *testing.B) {
	n := openNeural(b, NeuralOptions{})
	page := page2MP(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := n.Find(context.Background(), page); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimple2MP times the simple cropper on the same page (target:
// 20 ms on one core).
func BenchmarkSimple2MP(b *testing.B) {
	page := page2MP(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Simple(page, SimpleOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
