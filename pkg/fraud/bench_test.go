package fraud

import (
	"context"
	"testing"

	"docsuite/pkg/decode"
	"docsuite/pkg/synth/tamper"
)

// BenchmarkDocument measures the pixel checks of one photographed factory
// document (1600 px scene, one document) on one core.
func BenchmarkDocument(b *testing.B) {
	mk, err := tamper.New(3, nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := mk.Make(context.Background(), 0, tamper.Clean)
	if err != nil {
		b.Fatal(err)
	}
	doc, err := decode.Open(context.Background(), s.JPEG, decode.Options{MaxPages: 1, MaxPixels: 100e6})
	if err != nil {
		b.Fatal(err)
	}
	defer doc.Close()
	page, err := doc.Page(context.Background(), 0)
	if err != nil {
		b.Fatal(err)
	}
	an, err := New("")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := an.Document(context.Background(), page, s.Doc.Quad, s.Doc.Rotation, Source{}); err != nil {
			b.Fatal(err)
		}
	}
}
