package mrz

import (
	"image"
	"testing"
)

// A row is worth reading as a zone's last line only when the rows above it
// lie as the lines of some layout do: one under the next about a line's
// height apart, from the same left edge.
func TestEndsRun(t *testing.T) {
	row := func(x, y int) image.Rectangle { return image.Rect(x, y, x+900, y+40) }
	cases := []struct {
		name string
		rows []image.Rectangle
		want bool
	}{
		{"one row alone", []image.Rectangle{row(50, 700)}, false},
		{"two zone lines", []image.Rectangle{row(50, 700), row(52, 750)}, true},
		{"three card lines", []image.Rectangle{row(50, 600), row(50, 650), row(51, 700)}, true},
		{"row far below the one above", []image.Rectangle{row(50, 300), row(50, 700)}, false},
		{"row indented from the one above", []image.Rectangle{row(50, 700), row(200, 750)}, false},
		{"stacked rows above a lone last one", []image.Rectangle{row(50, 300), row(50, 350), row(50, 700)}, false},
	}
	for _, c := range cases {
		if got := endsRun(c.rows); got != c.want {
			t.Errorf("%s: endsRun = %v, want %v", c.name, got, c.want)
		}
	}
}
