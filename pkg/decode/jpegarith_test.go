package decode

import (
	"encoding/hex"
	"strings"
	"testing"
)

// arithJPEG is a 64x48 gradient from red (top) to blue (bottom), written
// by ImageMagick and turned into an arithmetic-coded JPEG (SOF9) by
// `jpegtran -arithmetic`, as some scanners and archival tools write them.
var arithJPEG = strings.TrimSpace(`
ffd8ffe000104a46494600010100000100010000ffdb0043000302020302
020303030304030304050805050404050a070706080c0a0c0c0b0a0b0b0d
0e12100d0e110e0b0b1016101113141515150c0f171816141812141514ff
db00430103040405040509050509140d0b0d141414141414141414141414
141414141414141414141414141414141414141414141414141414141414
1414141414141414ffc90011080030004003011100021101031101ffcc00
0a0010100501101105ffda000c03010002110311003f00ff00db56d61151
fe571a845cfe2d80819edd5184ec08f314d604b88a63d13095cd6b3e6527
4d42cb3b4c3ca8da516abc1e29b075dc21f8ac64ddf6cbd9bad3e8a91c4b
d00295f590f4f33274354a0953ad760d8d4b4aefddbc155b4cfa62c8e5b9
d11e88f447a23d1432260baa6907ce257ddf3df699e8ef4780ffd9
`)

// An arithmetic-coded JPEG is a valid JPEG that Go's image/jpeg does not
// read ("unsupported JPEG feature: unknown marker"); it was answered 422
// corrupt_file. libjpeg-turbo (through OpenCV) reads it.
func TestArithmeticJPEG(t *testing.T) {
	data, err := hex.DecodeString(strings.ReplaceAll(arithJPEG, "\n", ""))
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Sniff(data); err != nil || f != JPEG {
		t.Fatalf("sniffed %q, %v", f, err)
	}
	page := firstPage(t, data)
	if b := page.Bounds(); b.Dx() != 64 || b.Dy() != 48 {
		t.Fatalf("page %v, want 64x48", b)
	}
	near := func(x, y int, want [3]int) {
		r, g, b, _ := page.At(x, y).RGBA()
		got := [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
		for i := range got {
			if d := got[i] - want[i]; d > 40 || d < -40 {
				t.Errorf("pixel (%d,%d) = %v, want about %v", x, y, got, want)
				return
			}
		}
	}
	near(32, 1, [3]int{255, 0, 0})
	near(32, 46, [3]int{0, 0, 255})
}

// One cut short stays an error, not a picture padded with grey.
func TestArithmeticJPEGCutShort(t *testing.T) {
	data, err := hex.DecodeString(strings.ReplaceAll(arithJPEG, "\n", ""))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := Open(t.Context(), data[:len(data)-60], Options{})
	if err != nil {
		return // refused at opening: fine
	}
	defer doc.Close()
	if _, err := doc.Page(t.Context(), 0); err == nil {
		t.Fatal("a cut arithmetic JPEG decoded")
	}
}
