package testutil

import (
	"bytes"
	"fmt"
)

// PDF writes a PDF of the given objects, numbered from 1 (the first is
// the catalog), with its cross-reference table and a trailer naming the
// root, the size and, when extra is not empty, further trailer entries
// (an /Encrypt dictionary's reference and the file's /ID).
func PDF(version string, objs []string, extra string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%%PDF-%s\n", version)
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, extra, xref)
	return b.Bytes()
}
