package decode

import (
	"context"
	"encoding/binary"
	"errors"
	"os"
	"reflect"
	"testing"

	"docsuite/pkg/testutil"
)

// ifdChain builds a little-endian TIFF structure of IFDs, each holding the
// given NewSubfileType (or no entry when negative), chained in order; last
// is the final IFD's next offset (0 ends the chain).
func ifdChain(subfile []int, last uint32) ([]byte, []uint32) {
	le := binary.LittleEndian
	t := []byte{'I', 'I', 42, 0, 8, 0, 0, 0}
	var offs []uint32
	for i, v := range subfile {
		offs = append(offs, uint32(len(t)))
		n := 0
		if v >= 0 {
			n = 1
		}
		t = le.AppendUint16(t, uint16(n))
		if v >= 0 {
			t = le.AppendUint16(t, 0x00FE)
			t = le.AppendUint16(t, 4)
			t = le.AppendUint32(t, 1)
			t = le.AppendUint32(t, uint32(v))
		}
		next := uint32(len(t) + 4)
		if i == len(subfile)-1 {
			next = last
		}
		t = le.AppendUint32(t, next)
	}
	return t, offs
}

// TestTIFFPageIFDs: the pages of a TIFF file are the IFDs along its chain,
// not its thumbnails or masks; a chain that loops ends, one that leaves
// the file is a file cut short (cut).
func TestTIFFPageIFDs(t *testing.T) {
	tests := []struct {
		name    string
		subfile []int
		last    uint32
		want    []int // indexes of the IFDs that are pages
		cut     bool
	}{
		{"one page", []int{-1}, 0, []int{0}, false},
		{"three pages", []int{-1, 2, 2}, 0, []int{0, 1, 2}, false},
		{"a page and its thumbnail", []int{0, 1}, 0, []int{0}, false},
		{"a page, its mask, a page", []int{-1, 4, -1}, 0, []int{0, 2}, false},
		{"a chain looping to its start", []int{-1, -1}, 8, []int{0, 1}, false},
		{"a chain leaving the file", []int{-1, -1}, 1 << 30, nil, true},
		{"a chain ending where the file does", []int{-1, -1}, 20, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, offs := ifdChain(tc.subfile, tc.last)
			var want []uint32
			for _, i := range tc.want {
				want = append(want, offs[i])
			}
			got, err := tiffPageIFDs(data)
			if tc.cut {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("pages at %v, error %v; want ErrCorrupt, the file cut short", got, err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("pages at %v (error %v), want %v", got, err, want)
			}
		})
	}
}

// TestTIFFCutShort: a multi-page TIFF cut before a page's directory (an
// upload that stopped early) is refused as corrupt, not answered with the
// pages before the cut as if they were the whole file.
func TestTIFFCutShort(t *testing.T) {
	files := testutil.FormatFiles(t)
	data, err := os.ReadFile(files["page.tiff"])
	if err != nil {
		t.Fatal(err)
	}
	// The second directory's offset, read from the first's next-IFD
	// field (ImageMagick writes each page's data, then its directory).
	le := binary.LittleEndian
	if string(data[:2]) != "II" {
		t.Fatal("page.tiff is not little-endian")
	}
	first := le.Uint32(data[4:8])
	second := le.Uint32(data[first+2+12*uint32(le.Uint16(data[first:])):])
	if second == 0 || int(second) >= len(data) {
		t.Fatalf("page.tiff: second directory at %d of %d bytes", second, len(data))
	}
	tests := []struct {
		name  string
		data  []byte
		pages int // 0: ErrCorrupt wanted
	}{
		{"whole", data, 2},
		{"cut where the second page's directory starts", data[:second], 0},
		{"cut inside the second page's directory", data[:second+20], 0},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Open(ctx, tc.data, Options{})
			if tc.pages == 0 {
				if !errors.Is(err, ErrCorrupt) {
					pages := 0
					if err == nil {
						pages = doc.Pages()
					}
					t.Fatalf("opened with %d pages (error %v), want ErrCorrupt", pages, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if doc.Pages() != tc.pages {
				t.Errorf("%d pages, want %d", doc.Pages(), tc.pages)
			}
		})
	}
}
