package fakecheck

import (
	"bytes"
	"runtime"
	"testing"
	"time"
)

// TestBounded feeds Check files crafted with millions of tiny metadata
// items and checks that the memory it allocates stays within the input's
// size and that it finishes promptly.
func TestBounded(t *testing.T) {
	const n = 8 << 20
	rep := func(prefix, unit string) []byte {
		return append([]byte(prefix), bytes.Repeat([]byte(unit), n/len(unit))...)
	}
	cases := map[string][]byte{
		"pdf open strings":  rep("%PDF-1.4\n", "/Producer ("),
		"pdf producers":     rep("%PDF-1.4\n", "/Producer (Adobe Photoshop x) "),
		"pdf dates":         rep("%PDF-1.4\n", "/ModDate (D:20240101000000Z)"),
		"pdf open hex":      rep("%PDF-1.4\n", "/Creator <"),
		"pdf streams":       rep("%PDF-1.4\n", "/Metadata /FlateDecode stream\nx\x9c"),
		"pdf packets":       rep("%PDF-1.4\n", "<x:xmpmeta xmp:CreatorTool='GIMP'>"),
		"pdf eofs":          rep("%PDF-1.4\n", "%%EOF"),
		"pdf slashes":       rep("%PDF-1.4\n", "/"),
		"jpeg comments":     rep("\xFF\xD8", "\xFF\xFE\x00\x10Created w GIMP"),
		"jpeg resources":    rep("\xFF\xD8", "\xFF\xED\x00\x1cPhotoshop 3.0\x008BIM\x03\xED\x00\x00\x00\x00\x00\x00"),
		"png zTXt":          rep("\x89PNG\r\n\x1a\n", "\x00\x00\x00\x0bzTXtComment\x00\x00x\x9c\x00\x00\x00\x00"),
		"heic exif":         rep("\x00\x00\x00\x18ftypheic", "Exif\x00\x00"),
		"unknown xmp opens": rep("GIF89a", "<x:x"),
		"zeros":             make([]byte, n),
	}
	k := newChecker(t)
	for name, data := range cases {
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		start := time.Now()
		k.Check(data)
		took := time.Since(start)
		runtime.ReadMemStats(&m1)
		alloc := m1.TotalAlloc - m0.TotalAlloc
		t.Logf("%-18s %v, %d KiB allocated", name, took.Round(time.Millisecond), alloc>>10)
		if alloc > uint64(len(data))+1<<20 {
			t.Errorf("%s: %d bytes allocated for %d bytes of input", name, alloc, len(data))
		}
		if took > 10*time.Second {
			t.Errorf("%s: took %v", name, took)
		}
	}
}
