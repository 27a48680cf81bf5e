package geom

import "testing"

func TestRotationRoundTrip(t *testing.T) {
	for r := Rotation(0); r < NumRotations; r++ {
		p := Point{X: 3, Y: 1}
		q, w, h := r.MapPoint(p, 10, 5)
		back, w2, h2 := r.Inverse().MapPoint(q, w, h)
		if back != p || w2 != 10 || h2 != 5 {
			t.Errorf("%v: %v -> %v -> %v (%vx%v)", r, p, q, back, w2, h2)
		}
	}
}

func TestUprightOrder(t *testing.T) {
	crop := Quad{{0, 0}, {10, 0}, {0, 5}, {10, 5}}
	tests := []struct {
		r    Rotation
		want Quad
	}{
		{0, crop},
		// Turned 90 cw: the crop's bottom-left becomes the upright top-left.
		{1, Quad{{0, 5}, {0, 0}, {10, 5}, {10, 0}}},
		{2, Quad{{10, 5}, {0, 5}, {10, 0}, {0, 0}}},
		{4, Quad{{10, 0}, {0, 0}, {10, 5}, {0, 5}}},
	}
	for _, tc := range tests {
		if got := tc.r.UprightOrder(crop); got != tc.want {
			t.Errorf("%v: got %v want %v", tc.r, got, tc.want)
		}
	}
}

// TestFlipped: the image made by Flipped(r) is the one made by r mirrored
// left to right, for every code, and flipping twice gives r back.
func TestFlipped(t *testing.T) {
	const w, h = 40.0, 25.0
	pts := []Point{{0, 0}, {40, 0}, {3, 7}, {31, 22}}
	for r := Rotation(0); r < NumRotations; r++ {
		f := r.Flipped()
		if f.Mirrored() == r.Mirrored() || f.Flipped() != r {
			t.Errorf("%v: flipped %v, flipped twice %v", r, f, f.Flipped())
		}
		for _, p := range pts {
			a, aw, _ := r.MapPoint(p, w, h)
			b, _, _ := f.MapPoint(p, w, h)
			if want := (Point{X: aw - a.X, Y: a.Y}); b != want {
				t.Errorf("%v flipped (%v): %v lands at %v, want %v", r, f, p, b, want)
			}
		}
	}
}
