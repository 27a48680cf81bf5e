package decode

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"os"
	"testing"

	"docsuite/pkg/testutil"
)

// rleBMP wraps a run-length stream in a BMP of w x h with a palette of
// four colours (0 black, 1 red, 2 green, 3 blue).
func rleBMP(w, h, bits int, stream []byte) []byte {
	compression := uint32(bmpRLE8)
	if bits == 4 {
		compression = bmpRLE4
	}
	pal := []byte{0, 0, 0, 0, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 0}
	off := 14 + 40 + len(pal)
	var b bytes.Buffer
	b.WriteString("BM")
	le := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	le(uint32(off + len(stream)))
	le(uint32(0))
	le(uint32(off))
	le(uint32(40))
	le(int32(w))
	le(int32(h))
	le(uint16(1))
	le(uint16(bits))
	le(compression)
	le(uint32(len(stream)))
	le(int32(2835))
	le(int32(2835))
	le(uint32(4))
	le(uint32(0))
	b.Write(pal)
	b.Write(stream)
	return b.Bytes()
}

// TestBMPRunLengths: encoded and absolute runs, deltas and early ends of
// line land where Windows puts them; runs past a row's end are dropped.
func TestBMPRunLengths(t *testing.T) {
	const K, R, G, B = 0, 1, 2, 3
	tests := []struct {
		name   string
		bits   int
		w, h   int
		stream []byte
		want   [][]uint8 // rows from the top
	}{
		{"rle8 runs, one past the row's end", 8, 5, 2,
			[]byte{3, R, 4, G, 0, 0, 5, B, 0, 0, 0, 1},
			[][]uint8{{B, B, B, B, B}, {R, R, R, G, G}}},
		{"rle8 absolute run with padding, delta, early end of line", 8, 5, 3,
			[]byte{0, 3, G, B, R, 0, 1, G, 0, 0, 0, 2, 2, 1, 1, B, 0, 1},
			[][]uint8{{K, K, B, K, K}, {K, K, K, K, K}, {G, B, R, G, K}}},
		{"rle4 runs alternate nibbles; absolute run", 4, 5, 2,
			[]byte{5, R<<4 | G, 0, 0, 0, 3, B<<4 | R, G << 4, 0, 0, 0, 1},
			[][]uint8{{B, R, G, K, K}, {R, G, R, G, R}}},
		{"no end-of-bitmap mark", 8, 2, 2,
			[]byte{2, R},
			[][]uint8{{K, K}, {R, R}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img, err := decodeBMPRLE(rleBMP(tc.w, tc.h, tc.bits, tc.stream))
			if err != nil {
				t.Fatal(err)
			}
			for y, row := range tc.want {
				for x, want := range row {
					if got := img.(*image.Paletted).ColorIndexAt(x, y); got != want {
						t.Errorf("pixel (%d, %d) = %d, want %d", x, y, got, want)
					}
				}
			}
		})
	}
	if _, err := decodeBMPRLE(rleBMP(4, 1, 8, []byte{0, 4, R, R})); err == nil {
		t.Error("an absolute run cut short decoded without an error")
	}
	plain := rleBMP(4, 1, 8, nil)
	binary.LittleEndian.PutUint32(plain[30:34], 0)
	if _, err := decodeBMPRLE(plain); err != errNotRLE {
		t.Errorf("an uncompressed BMP: %v, want errNotRLE", err)
	}
}

// TestImageMagickRLEBMP: ImageMagick's RLE8 BMP of a page 242 pixels wide
// decodes to exactly the pixels of the same page saved as PNG.
func TestImageMagickRLEBMP(t *testing.T) {
	files := testutil.FormatFiles(t)
	read := func(name string) image.Image {
		data, err := os.ReadFile(files[name])
		if err != nil {
			t.Fatal(err)
		}
		doc, err := Open(context.Background(), data, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer doc.Close()
		img, err := doc.Page(context.Background(), 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return img
	}
	got, want := read("odd_rle.bmp"), read("odd_q.png")
	if got.Bounds() != want.Bounds() {
		t.Fatalf("size %v, want %v", got.Bounds(), want.Bounds())
	}
	bad := 0
	b := want.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if color.RGBAModel.Convert(got.At(x, y)) != color.RGBAModel.Convert(want.At(x, y)) {
				bad++
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d pixels differ from the PNG", bad, b.Dx()*b.Dy())
	}
}
