package decode

import (
	"encoding/binary"
	"reflect"
	"testing"
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
// not its thumbnails or masks; a chain that loops or leaves the file ends.
func TestTIFFPageIFDs(t *testing.T) {
	tests := []struct {
		name    string
		subfile []int
		last    uint32
		want    []int // indexes of the IFDs that are pages
	}{
		{"one page", []int{-1}, 0, []int{0}},
		{"three pages", []int{-1, 2, 2}, 0, []int{0, 1, 2}},
		{"a page and its thumbnail", []int{0, 1}, 0, []int{0}},
		{"a page, its mask, a page", []int{-1, 4, -1}, 0, []int{0, 2}},
		{"a chain looping to its start", []int{-1, -1}, 8, []int{0, 1}},
		{"a chain leaving the file", []int{-1, -1}, 1 << 30, []int{0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, offs := ifdChain(tc.subfile, tc.last)
			var want []uint32
			for _, i := range tc.want {
				want = append(want, offs[i])
			}
			if got := tiffPageIFDs(data); !reflect.DeepEqual(got, want) {
				t.Errorf("pages at %v, want %v", got, want)
			}
		})
	}
}
